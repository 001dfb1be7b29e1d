import { pure } from './pure';
import * as z from './zod';
import { Cursor } from './products';
import { Email, Id } from './schemas';

/**
 * What the commission rules calls send and answer (issue 39; docs/programme.md). Money is a
 * two-decimal dollar text at this edge ("2.50"), percentages a decimal text ("12.5"); the server
 * keeps integer cents and basis points (shared/src/domain/commission-rules.ts).
 */

/** The most rules a programme holds (decision 0420: the programme is one item every sale reads). */
export const MAX_RULES = 300;
/** The most member groups. */
export const MAX_GROUPS = 50;

const PERCENT_TEXT = /^\s*\d{1,3}(\.\d{1,2})?\s*$/;
const DOLLAR_TEXT = /^\s*\$?\s*\d{1,7}(\.\d{1,2})?\s*$/;

export const PercentText = /* @__PURE__ */ pure(() =>
  z
    .string()
    .check(
      z.regex(PERCENT_TEXT, 'Write the percentage as a number from 0 to 100, with at most two decimals, such as 12.5'),
    ),
);
export const DollarText = /* @__PURE__ */ pure(() =>
  z.string().check(z.regex(DOLLAR_TEXT, 'Write the amount in dollars with at most two decimals, such as 2.50')),
);

export const RuleScope = /* @__PURE__ */ pure(() =>
  z.enum(['product', 'brand', 'group', 'default'], { error: 'Choose what the rule is for' }),
);

export const RuleRateInput = /* @__PURE__ */ pure(() =>
  z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('percent'), percent: PercentText }),
    z.strictObject({ kind: z.literal('fixed'), amount: DollarText }),
  ]),
);

/** A rule as the admin writes it: for what, how much, and the optional limits per sale. */
export const RuleInput = /* @__PURE__ */ pure(() =>
  z.strictObject({
    scope: RuleScope,
    /** The product id, the brand, or the group id; empty for the default. */
    value: z.string().check(z.trim(), z.maxLength(200)),
    rate: RuleRateInput,
    min: z.optional(z.nullable(DollarText)),
    max: z.optional(z.nullable(DollarText)),
  }),
);
export type RuleInput = z.output<typeof RuleInput>;

/** Conditional on the programme's version the admin saw: another admin's change between is a 409 in words. */
const Version = /* @__PURE__ */ pure(() => z.int().check(z.gte(0)));

export const ChangeRuleRequest = /* @__PURE__ */ pure(() =>
  z.discriminatedUnion('action', [
    z.strictObject({ action: z.literal('create'), version: Version, rule: RuleInput }),
    z.strictObject({ action: z.literal('update'), version: Version, id: Id, rule: RuleInput }),
    z.strictObject({ action: z.literal('delete'), version: Version, id: Id }),
  ]),
);
export type ChangeRuleRequest = z.input<typeof ChangeRuleRequest>;
export type RuleChange = z.output<typeof ChangeRuleRequest>;

export const Rule = /* @__PURE__ */ pure(() =>
  z.object({
    id: z.string(),
    scope: z.enum(['product', 'brand', 'group', 'default']),
    value: z.string(),
    /** In words: "product Desk Lamp Pro", "brand Lumo", "group Top sellers", "everyone (the default)". */
    for: z.string(),
    rate: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('percent'), percent: z.string() }),
      z.object({ kind: z.literal('fixed'), amount: z.string() }),
    ]),
    min: z.nullable(z.string()),
    max: z.nullable(z.string()),
    /** In words: "12.5 %, at most $20.00 a sale". */
    rateText: z.string(),
    created_at: z.string(),
  }),
);
export type Rule = z.infer<typeof Rule>;

export const MemberGroup = /* @__PURE__ */ pure(() =>
  z.object({ id: z.string(), name: z.string(), memberCount: z.int(), created_at: z.string() }),
);
export type MemberGroup = z.infer<typeof MemberGroup>;

export const Programme = /* @__PURE__ */ pure(() =>
  z.object({ version: z.int(), rules: z.array(Rule), groups: z.array(MemberGroup) }),
);
export type Programme = z.infer<typeof Programme>;

export const RulePreview = /* @__PURE__ */ pure(() =>
  z.object({
    /** Approved products whose You Make changes for someone. */
    productsChanged: z.int(),
    /** Approved products looked at (the catalogue, up to a limit: `partial` says it stopped there). */
    productsCounted: z.int(),
    partial: z.boolean(),
    /** Members of groups whose You Make changes on at least one product. */
    groupMembersChanged: z.int(),
    /** True when members in no group (everyone else) see a change too. */
    everyoneElse: z.boolean(),
    /** One product that changes: "Desk Lamp Pro: You Make $2.42 → $3.63". */
    example: z.nullable(z.string()),
    /** The whole preview in one sentence for the screen. */
    summary: z.string(),
  }),
);
export type RulePreview = z.infer<typeof RulePreview>;

export const ChangeGroupRequest = /* @__PURE__ */ pure(() =>
  z.discriminatedUnion('action', [
    z.strictObject({
      action: z.literal('create'),
      name: z.string().check(z.trim(), z.minLength(1), z.maxLength(60)),
    }),
    z.strictObject({ action: z.literal('add'), groupId: Id, email: Email }),
    z.strictObject({ action: z.literal('remove'), groupId: Id, memberId: Id }),
  ]),
);
export type ChangeGroupRequest = z.input<typeof ChangeGroupRequest>;
export type GroupChange = z.output<typeof ChangeGroupRequest>;

export const GroupMembersRequest = /* @__PURE__ */ pure(() =>
  z.strictObject({
    groupId: Id,
    cursor: z.optional(Cursor),
    limit: z.optional(z.int().check(z.gte(1), z.lte(100))),
  }),
);
export const GroupMemberPage = /* @__PURE__ */ pure(() =>
  z.object({
    items: z.array(z.object({ id: z.string(), email: z.string(), added_at: z.string() })),
    nextCursor: z.nullable(z.string()),
  }),
);
export type GroupMemberPage = z.infer<typeof GroupMemberPage>;

export const RuleAuditRequest = /* @__PURE__ */ pure(() =>
  z.strictObject({ cursor: z.optional(Cursor), limit: z.optional(z.int().check(z.gte(1), z.lte(100))) }),
);
export const RuleAuditEntry = /* @__PURE__ */ pure(() =>
  z.object({
    id: z.string(),
    at: z.string(),
    /** The admin's e-mail address. */
    who: z.string(),
    /** "Rule created", "Rule changed", "Rule deleted", "Group created", "Member added", "Member removed". */
    action: z.string(),
    /** What it was before, in words; null for a creation. */
    before: z.nullable(z.string()),
    /** What it is after, in words; null for a deletion. */
    after: z.nullable(z.string()),
  }),
);
export type RuleAuditEntry = z.infer<typeof RuleAuditEntry>;
export const RuleAuditPage = /* @__PURE__ */ pure(() =>
  z.object({ items: z.array(RuleAuditEntry), nextCursor: z.nullable(z.string()) }),
);
