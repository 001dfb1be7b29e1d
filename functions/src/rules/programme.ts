import { randomBytes } from 'node:crypto';
import type {
  GroupChange,
  RuleChange,
  MemberGroup,
  Programme,
  Rule,
  RuleInput,
  RulePreview,
} from '@portal/shared/api/commission-rules';
import { MAX_GROUPS, MAX_RULES } from '@portal/shared/api/commission-rules';
import {
  DEFAULT_RULE_ID,
  SPEC_DEFAULT_RULE,
  brandKey,
  describeRate,
  describeScope,
  pickRule,
  ruleCommissionCents,
  type CommissionRule,
  type RuleSubject,
} from '@portal/shared/domain/commission-rules';
import { formatCents } from '@portal/shared/domain/money';
import { formatCount, formatMoney } from '@portal/shared/domain/format';
import { DomainError, badRequest, conflict } from '../errors';
import type { AuditRecord, RuleStore, StoredGroup, StoredProgramme } from './rule-store';

/** What the rules need besides their store: a product's name and brand, the approved catalogue, a member by e-mail. */
export interface RuleDeps {
  store: RuleStore;
  products: {
    get(
      id: string,
    ): Promise<
      { id: string; content: { product_name: string; brand: string; priceCents: number } | undefined } | undefined
    >;
    approvedPage(
      cursor: string | undefined,
      limit: number,
    ): Promise<{
      items: { id: string; product_name: string; brand: string; priceCents: number }[];
      nextCursor: string | null;
    }>;
  };
  members: { findByEmail(email: string): Promise<{ id: string; email: string } | undefined> };
  now: () => number;
}

/** Who makes a change: the admin's id and e-mail address, kept on its audit entry. */
export interface Admin {
  id: string;
  email: string;
}

/** The most approved products a preview looks at (a page of 100 at a time): decision 0421. */
export const PREVIEW_MAX_PRODUCTS = 5_000;

export const VERSION_MOVED =
  'Another admin changed the commission rules since you opened them. Reload to see their change, then make yours again.';
export const NO_SUCH_RULE = 'There is no commission rule with this id; it may have been deleted. Reload the rules.';
export const NO_SUCH_GROUP = 'There is no member group with this id. Reload the groups.';
export const NO_SUCH_PRODUCT = 'There is no product with this id. Copy the id from the product in the Catalogue.';
export const NO_SUCH_MEMBER = 'No member has this e-mail address. Check the spelling, or ask them to sign up first.';

/** The rules in force: the stored ones, with the spec's default when none replaced it. */
export function rulesInForce(programme: Pick<StoredProgramme, 'rules'>): CommissionRule[] {
  return programme.rules.some((rule) => rule.id === DEFAULT_RULE_ID)
    ? programme.rules
    : [SPEC_DEFAULT_RULE, ...programme.rules];
}

/** The rules in force with each group rule named after its group (a commission keeps the name in its rule's words). */
function namedRules(programme: StoredProgramme): CommissionRule[] {
  return rulesInForce(programme).map((rule) =>
    rule.scope === 'group' ? { ...rule, name: groupName(programme, rule.value) ?? rule.value } : rule,
  );
}

/** Picks the rule of a member's sale of a product under the rules in force (saleRulesOf). */
export type SaleRulePicker = (memberId: string, productId: string, brand: string) => Promise<CommissionRule>;

/**
 * The rules in force for a sale (orders/record-sale.ts), as one container keeps them (decision
 * 0480): each sale reads the programme's version (one strongly consistent GetItem of a small item);
 * the rules are read, and kept, only when the container holds none or another version's. Every
 * change of the rules or the groups moves the version in its transaction, so a sale paid after a
 * change reads it; a member's groups are not kept (read at the sale, below). Call once per
 * container (composition.ts), then `inForce()` at each sale.
 */
export function saleRulesOf(store: RuleStore): { inForce(): Promise<SaleRulePicker> } {
  /** The rules of the programme this container read last, by its version; only what a sale picks from. */
  let held: { version: number; rules: CommissionRule[] } | undefined;
  return {
    async inForce() {
      const version = await store.programmeVersion();
      if (held?.version !== version) {
        const programme = await store.programme();
        // Its own version: a change between the two reads is kept as what it is.
        held = { version: programme.version, rules: namedRules(programme) };
      }
      return salePicker(store, held.rules);
    },
  };
}

/**
 * A sale's picker over the rules in force: it reads the member's groups only when a group rule
 * could decide, that is when the programme has a group rule and neither a product nor a brand rule
 * applies (they outrank any group's: pickRule).
 */
function salePicker(store: RuleStore, rules: CommissionRule[]): SaleRulePicker {
  const groupRules = rules.some((rule) => rule.scope === 'group');
  return async (memberId, productId, brand) => {
    const outside = pickRule(rules, { productId, brand, groupIds: [] });
    if (!groupRules || outside.scope === 'product' || outside.scope === 'brand') return outside;
    return pickRule(rules, { productId, brand, groupIds: await store.groupsOf(memberId) });
  };
}

/** The rule of each product for one member (a page of cards): one read of the programme and the member's groups. */
export async function rulesOfMember(
  store: RuleStore,
  memberId: string,
): Promise<(productId: string, brand: string) => CommissionRule> {
  const [programme, groupIds] = await Promise.all([store.programme(), store.groupsOf(memberId)]);
  const rules = namedRules(programme);
  return (productId, brand) => pickRule(rules, { productId, brand, groupIds });
}

// ---------------------------------------------------------------------------------------------
// The admin's view

const cents = (text: string): number => {
  const [whole = '0', fraction = ''] = text
    .trim()
    .replace(/^\$\s*/, '')
    .split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
};
const basisPoints = (text: string): number => {
  const [whole = '0', fraction = ''] = text.trim().split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
};
const percentText = (points: number): string => {
  const rest = points % 100;
  return rest === 0
    ? String(points / 100)
    : `${Math.trunc(points / 100)}.${String(rest).padStart(2, '0').replace(/0$/, '')}`;
};

function groupName(programme: Pick<StoredProgramme, 'groups'>, id: string): string | undefined {
  return programme.groups.find((group) => group.id === id)?.name;
}

/** "12.5 % for brand Lumo": a rule in words, as the audit log and the preview say it. */
export function ruleWords(rule: CommissionRule, programme: Pick<StoredProgramme, 'groups'>): string {
  return `${describeRate(rule)} for ${describeScope(rule, { product: rule.name, group: groupName(programme, rule.value) })}`;
}

export function toRule(rule: CommissionRule, programme: Pick<StoredProgramme, 'groups'>): Rule {
  return {
    id: rule.id,
    scope: rule.scope,
    value: rule.value,
    for: describeScope(rule, { product: rule.name, group: groupName(programme, rule.value) }),
    rate:
      rule.rate.kind === 'percent'
        ? { kind: 'percent', percent: percentText(rule.rate.basisPoints) }
        : { kind: 'fixed', amount: formatCents(rule.rate.cents) },
    min: rule.minCents === undefined ? null : formatCents(rule.minCents),
    max: rule.maxCents === undefined ? null : formatCents(rule.maxCents),
    rateText: describeRate(rule),
    created_at: rule.createdAt,
  };
}

const toGroup = (group: StoredGroup): MemberGroup => ({
  id: group.id,
  name: group.name,
  memberCount: group.memberCount,
  created_at: group.createdAt,
});

/** The programme as the admin's screen shows it: the default first, then by kind, oldest first. */
export function presentProgramme(programme: StoredProgramme): Programme {
  const order = { default: 0, product: 1, brand: 2, group: 3 } as const;
  const rules = [...rulesInForce(programme)].sort(
    (a, b) => order[a.scope] - order[b.scope] || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id),
  );
  return {
    version: programme.version,
    rules: rules.map((rule) => toRule(rule, programme)),
    groups: programme.groups.map(toGroup),
  };
}

// ---------------------------------------------------------------------------------------------
// Changes

/** The rule a change asks for, checked against the programme and the catalogue; a sentence naming the field when not. */
async function checkedRule(
  deps: RuleDeps,
  programme: StoredProgramme,
  input: RuleInput,
  base: Pick<CommissionRule, 'id' | 'createdAt'>,
): Promise<CommissionRule> {
  const rate =
    input.rate.kind === 'percent'
      ? { kind: 'percent' as const, basisPoints: basisPoints(input.rate.percent) }
      : { kind: 'fixed' as const, cents: cents(input.rate.amount) };
  if (rate.kind === 'percent' && rate.basisPoints > 10_000) {
    throw badRequest('A percentage is at most 100.', { 'rate.percent': 'A percentage is at most 100.' });
  }
  const minCents = input.min ? cents(input.min) : undefined;
  const maxCents = input.max ? cents(input.max) : undefined;
  if (minCents !== undefined && maxCents !== undefined && minCents > maxCents) {
    const message = `The minimum (${formatMoney(minCents)}) is more than the maximum (${formatMoney(maxCents)}).`;
    throw badRequest(message, { min: message });
  }
  const value = input.value.trim();
  const rule: CommissionRule = { ...base, scope: input.scope, value, rate, minCents, maxCents };
  if (minCents === undefined) delete rule.minCents;
  if (maxCents === undefined) delete rule.maxCents;
  switch (input.scope) {
    case 'default':
      if (base.id !== DEFAULT_RULE_ID) {
        const message = 'There is one default rule, for everyone: change it rather than adding another.';
        throw badRequest(message, { scope: message });
      }
      rule.value = '';
      break;
    case 'product': {
      const product = value ? await deps.products.get(value) : undefined;
      if (!product?.content) throw badRequest(NO_SUCH_PRODUCT, { value: NO_SUCH_PRODUCT });
      rule.name = product.content.product_name;
      break;
    }
    case 'brand':
      if (!value)
        throw badRequest('Write the brand as the catalogue names it.', {
          value: 'Write the brand as the catalogue names it.',
        });
      break;
    case 'group':
      if (!groupName(programme, value)) throw badRequest(NO_SUCH_GROUP, { value: NO_SUCH_GROUP });
      break;
  }
  if (base.id === DEFAULT_RULE_ID && input.scope !== 'default') {
    const message = 'The default rule stays the default: add a rule for a product, a brand or a group instead.';
    throw badRequest(message, { scope: message });
  }
  const same = programme.rules.find(
    (other) =>
      other.id !== base.id &&
      other.scope === rule.scope &&
      (rule.scope === 'brand' ? brandKey(other.value) === brandKey(rule.value) : other.value === rule.value),
  );
  if (same) {
    const message = `There is already a rule for ${describeScope(same, { product: same.name, group: groupName(programme, same.value) })} (${describeRate(same)}): change that one.`;
    throw badRequest(message, { value: message });
  }
  return rule;
}

/** The rules a change would leave, with what it was and what it becomes (for the audit and the preview). */
async function applyChange(
  deps: RuleDeps,
  programme: StoredProgramme,
  change: RuleChange,
): Promise<{ rules: CommissionRule[]; before: CommissionRule | null; after: CommissionRule | null }> {
  const inForce = rulesInForce(programme);
  if (change.action === 'create') {
    if (programme.rules.length >= MAX_RULES) {
      throw badRequest(`A programme holds at most ${MAX_RULES} rules: delete one you no longer need first.`);
    }
    const rule = await checkedRule(deps, programme, change.rule, {
      id: randomBytes(8).toString('hex'),
      createdAt: new Date(deps.now()).toISOString(),
    });
    return { rules: [...inForce, rule], before: null, after: rule };
  }
  const before = inForce.find((rule) => rule.id === change.id);
  if (!before) throw new DomainError('not-found', NO_SUCH_RULE);
  if (change.action === 'delete') {
    if (before.id === DEFAULT_RULE_ID) {
      throw badRequest(
        'The default rule cannot be deleted: it pays everyone whom no other rule names. Change its rate instead.',
      );
    }
    return { rules: inForce.filter((rule) => rule.id !== before.id), before, after: null };
  }
  const after = await checkedRule(deps, programme, change.rule, { id: before.id, createdAt: before.createdAt });
  return { rules: inForce.map((rule) => (rule.id === before.id ? after : rule)), before, after };
}

const audit = (
  deps: RuleDeps,
  admin: Admin,
  action: string,
  before: string | null,
  after: string | null,
): AuditRecord => ({
  id: randomBytes(8).toString('hex'),
  at: new Date(deps.now()).toISOString(),
  whoId: admin.id,
  whoEmail: admin.email,
  action,
  before,
  after,
});

const RULE_ACTION = { create: 'Rule created', update: 'Rule changed', delete: 'Rule deleted' } as const;

/** Creates, changes or deletes a rule, conditional on the version the admin saw; its audit entry goes with it. */
export async function changeRule(deps: RuleDeps, admin: Admin, change: RuleChange): Promise<Programme> {
  const programme = await deps.store.programme();
  if (programme.version !== change.version) throw conflict(VERSION_MOVED);
  const { rules, before, after } = await applyChange(deps, programme, change);
  const entry = audit(
    deps,
    admin,
    RULE_ACTION[change.action],
    before && ruleWords(before, programme),
    after && ruleWords(after, programme),
  );
  if (!(await deps.store.saveRules(change.version, rules, entry))) throw conflict(VERSION_MOVED);
  return presentProgramme({ ...programme, version: programme.version + 1, rules });
}

/** A class of members the preview compares: those in no group, and each group's. */
interface MemberClass {
  groupIds: string[];
  members: number;
}

/**
 * What a change would do before it is saved: every approved product (up to PREVIEW_MAX_PRODUCTS)
 * under the rules before and after, for the members in no group and for each group's; reads only.
 */
export async function previewRule(deps: RuleDeps, change: RuleChange): Promise<RulePreview> {
  const programme = await deps.store.programme();
  if (programme.version !== change.version) throw conflict(VERSION_MOVED);
  const { rules: after, before: ruleBefore, after: ruleAfter } = await applyChange(deps, programme, change);
  const before = rulesInForce(programme);
  const classes: MemberClass[] = [
    { groupIds: [], members: 0 },
    ...programme.groups.map((group) => ({ groupIds: [group.id], members: group.memberCount })),
  ];
  // A product rule touches one product: read it alone; any other kind, the approved catalogue.
  const productIds = [ruleBefore, ruleAfter].flatMap((rule) => (rule?.scope === 'product' ? [rule.value] : []));
  const onlyProducts = ruleBefore?.scope !== 'product' && ruleAfter?.scope !== 'product' ? undefined : productIds;
  const { products, partial } = onlyProducts ? await someProducts(deps, onlyProducts) : await catalogue(deps);
  let productsChanged = 0;
  let example: string | null = null;
  const changedClasses = new Set<number>();
  for (const product of products) {
    let changed = false;
    classes.forEach((memberClass, index) => {
      const subject: RuleSubject = { productId: product.id, brand: product.brand, groupIds: memberClass.groupIds };
      const old = ruleCommissionCents(pickRule(before, subject), product.priceCents, 1);
      const now = ruleCommissionCents(pickRule(after, subject), product.priceCents, 1);
      if (old === now) return;
      changed = true;
      changedClasses.add(index);
      example ??= `${product.product_name}: You Make ${formatMoney(old)} → ${formatMoney(now)}${
        memberClass.groupIds.length ? ` (${groupName(programme, memberClass.groupIds[0]!)})` : ''
      }`;
    });
    if (changed) productsChanged += 1;
  }
  const everyoneElse = changedClasses.has(0);
  const groupMembersChanged = [...changedClasses].reduce((sum, index) => sum + classes[index]!.members, 0);
  const who = [
    ...(everyoneElse ? ['every member in no group'] : []),
    ...(groupMembersChanged
      ? [`${formatCount(groupMembersChanged)} member${groupMembersChanged === 1 ? '' : 's'} of groups`]
      : []),
  ];
  const summary =
    productsChanged === 0
      ? `No member's You Make changes on any of the ${formatCount(products.length)} approved products${partial ? ' looked at' : ''}.`
      : `${formatCount(productsChanged)} of ${formatCount(products.length)} approved product${products.length === 1 ? '' : 's'}${
          partial ? ' looked at' : ''
        } change${productsChanged === 1 ? 's' : ''} for ${who.join(' and ')}.${example ? ` For example ${example}.` : ''}`;
  return {
    productsChanged,
    productsCounted: products.length,
    partial,
    groupMembersChanged,
    everyoneElse,
    example,
    summary,
  };
}

type PreviewProduct = { id: string; product_name: string; brand: string; priceCents: number };

async function someProducts(deps: RuleDeps, ids: string[]): Promise<{ products: PreviewProduct[]; partial: boolean }> {
  const found = await Promise.all([...new Set(ids)].map((id) => deps.products.get(id)));
  return {
    products: found.flatMap((product) => (product?.content ? [{ id: product.id, ...product.content }] : [])),
    partial: false,
  };
}

async function catalogue(deps: RuleDeps): Promise<{ products: PreviewProduct[]; partial: boolean }> {
  const products: PreviewProduct[] = [];
  let cursor: string | undefined;
  do {
    const page = await deps.products.approvedPage(cursor, 100);
    products.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor && products.length < PREVIEW_MAX_PRODUCTS);
  return { products: products.slice(0, PREVIEW_MAX_PRODUCTS), partial: cursor !== undefined };
}

// ---------------------------------------------------------------------------------------------
// Groups

/** Creates a group, or puts a member in one or out of it; each with its audit entry. */
export async function changeGroup(deps: RuleDeps, admin: Admin, change: GroupChange): Promise<Programme> {
  const programme = await deps.store.programme();
  if (change.action === 'create') {
    if (programme.groups.length >= MAX_GROUPS) throw badRequest(`There are at most ${MAX_GROUPS} member groups.`);
    const name = change.name.trim();
    if (programme.groups.some((group) => group.name.toLowerCase() === name.toLowerCase())) {
      const message = `There is already a group named ${name}.`;
      throw badRequest(message, { name: message });
    }
    const group: StoredGroup = {
      id: randomBytes(8).toString('hex'),
      name,
      memberCount: 0,
      createdAt: new Date(deps.now()).toISOString(),
    };
    const entry = audit(deps, admin, 'Group created', null, `Group ${name}`);
    if (!(await deps.store.createGroup(programme.version, group, entry))) throw conflict(VERSION_MOVED);
    return presentProgramme({ ...programme, version: programme.version + 1, groups: [...programme.groups, group] });
  }
  const name = groupName(programme, change.groupId);
  if (!name) throw badRequest(NO_SUCH_GROUP, { groupId: NO_SUCH_GROUP });
  if (change.action === 'add') {
    const member = await deps.members.findByEmail(change.email);
    if (!member) throw badRequest(NO_SUCH_MEMBER, { email: NO_SUCH_MEMBER });
    const entry = audit(deps, admin, 'Member added', null, `${member.email} in group ${name}`);
    const outcome = await deps.store.addMember(
      change.groupId,
      { id: member.id, email: member.email, addedAt: entry.at },
      entry,
    );
    if (outcome === 'no-group') throw badRequest(NO_SUCH_GROUP, { groupId: NO_SUCH_GROUP });
    if (outcome === 'already') {
      const message = `${member.email} is in group ${name} already.`;
      throw badRequest(message, { email: message });
    }
  } else {
    const entry = audit(deps, admin, 'Member removed', `Member ${change.memberId} in group ${name}`, null);
    if ((await deps.store.removeMember(change.groupId, change.memberId, entry)) === 'not-member') {
      throw conflict(`This member is not in group ${name} (any more). Reload the group's members.`);
    }
  }
  return presentProgramme(await deps.store.programme());
}

export async function groupMembers(deps: RuleDeps, groupId: string, cursor: string | undefined, limit = 50) {
  const page = await deps.store.members(groupId, cursor, limit);
  return {
    items: page.items.map((member) => ({ id: member.id, email: member.email, added_at: member.addedAt })),
    nextCursor: page.nextCursor,
  };
}

export async function auditLog(deps: RuleDeps, cursor: string | undefined, limit = 50) {
  const page = await deps.store.audit(cursor, limit);
  return {
    items: page.items.map((entry) => ({
      id: entry.id,
      at: entry.at,
      who: entry.whoEmail,
      action: entry.action,
      before: entry.before,
      after: entry.after,
    })),
    nextCursor: page.nextCursor,
  };
}

/**
 * The member's You Make on one unit of each product, by their rule (the cards and the detail page):
 * one read of the programme and of the member's groups for a whole page.
 */
export async function youMakeOfMember(
  store: RuleStore,
  memberId: string,
): Promise<(productId: string, content: { brand: string; dropshipping_price_us_cents: number }) => number> {
  const ruleOf = await rulesOfMember(store, memberId);
  return (productId, content) =>
    ruleCommissionCents(ruleOf(productId, content.brand), content.dropshipping_price_us_cents, 1);
}
