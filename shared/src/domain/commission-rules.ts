import { YOU_MAKE_PERCENT } from './money';
import { formatMoney } from './format';

/**
 * Commission rules (issue 39): what a member earns on a sale. A rule is for a product, a brand (the
 * CSV's `brand`), a member group, or everyone (the default, the spec's 10 %); it pays a percentage
 * of the unit price (in basis points: 1250 is 12.5 %) or a fixed amount per unit, with an optional
 * minimum and maximum per sale. The most specific rule that applies wins (product over brand over
 * group over the default); between rules of the same kind that both apply (a member in two groups
 * with a rule each), the oldest. Pure: the server (the sale, the cards, the preview) and the admin
 * app use the same code, in integer cents.
 */

export type RuleScopeKind = 'product' | 'brand' | 'group' | 'default';
export const RULE_SCOPE_KINDS: readonly RuleScopeKind[] = ['product', 'brand', 'group', 'default'];

export type RuleRate = { kind: 'percent'; basisPoints: number } | { kind: 'fixed'; cents: number };

export interface CommissionRule {
  id: string;
  scope: RuleScopeKind;
  /** The product id, the brand as the admin wrote it, the group id; '' for the default. */
  value: string;
  rate: RuleRate;
  minCents?: number | undefined;
  maxCents?: number | undefined;
  createdAt: string;
  /** A product rule: the product's name when the rule was saved (the screens and the audit log say it). */
  name?: string | undefined;
}

/** The id of the default rule, which always exists (the spec's 10 % until an admin changes it). */
export const DEFAULT_RULE_ID = 'default';

/** The spec's programme: 10 % of the unit price on every product, for everyone. */
export const SPEC_DEFAULT_RULE: CommissionRule = {
  id: DEFAULT_RULE_ID,
  scope: 'default',
  value: '',
  rate: { kind: 'percent', basisPoints: YOU_MAKE_PERCENT * 100 },
  createdAt: '1970-01-01T00:00:00.000Z',
};

/** How specific each kind is: the lower, the more specific. */
const RANK: Record<RuleScopeKind, number> = { product: 0, brand: 1, group: 2, default: 3 };

/** Brands compare without case or surrounding spaces ("Lumo " is "lumo"). */
export const brandKey = (brand: string): string => brand.trim().toLowerCase();

/** What a sale or a card is: the product, its brand, and the member's groups. */
export interface RuleSubject {
  productId: string;
  brand: string;
  groupIds: readonly string[];
}

function applies(rule: CommissionRule, subject: RuleSubject): boolean {
  switch (rule.scope) {
    case 'product':
      return rule.value === subject.productId;
    case 'brand':
      return brandKey(rule.value) === brandKey(subject.brand);
    case 'group':
      return subject.groupIds.includes(rule.value);
    case 'default':
      return true;
  }
}

/** Older first: the creation time, then the id (two rules made in one millisecond keep one order). */
const older = (a: CommissionRule, b: CommissionRule): boolean =>
  a.createdAt < b.createdAt || (a.createdAt === b.createdAt && a.id < b.id);

/**
 * The rule a sale or card follows: the most specific that applies, the oldest of a tie; the
 * default (the spec's 10 % when the list has none) when nothing else does.
 */
export function pickRule(rules: readonly CommissionRule[], subject: RuleSubject): CommissionRule {
  let best: CommissionRule | undefined;
  for (const rule of rules) {
    if (!applies(rule, subject)) continue;
    if (!best || RANK[rule.scope] < RANK[best.scope] || (RANK[rule.scope] === RANK[best.scope] && older(rule, best))) {
      best = rule;
    }
  }
  return best ?? SPEC_DEFAULT_RULE;
}

/** unitCents × basisPoints / 10 000, to the cent, half up, in integers. */
function percentOf(unitCents: number, basisPoints: number): number {
  const scaled = unitCents * basisPoints;
  const remainder = scaled % 10_000;
  const whole = (scaled - remainder) / 10_000;
  return remainder >= 5_000 ? whole + 1 : whole;
}

/**
 * The commission of a sale under a rule: per unit (a percentage of the unit price rounded half up,
 * or the fixed amount), times the quantity, then held between the rule's minimum and maximum, and
 * never more than the sale itself. `unitCents` is what was paid per unit (the commission's base).
 * At the spec's 10 % this is `youMakeCents(unit) × qty` to the cent.
 */
export function ruleCommissionCents(
  rule: Pick<CommissionRule, 'rate' | 'minCents' | 'maxCents'>,
  unitCents: number,
  qty: number,
): number {
  const perUnit = rule.rate.kind === 'percent' ? percentOf(unitCents, rule.rate.basisPoints) : rule.rate.cents;
  let cents = perUnit * qty;
  if (rule.minCents !== undefined && cents < rule.minCents) cents = rule.minCents;
  if (rule.maxCents !== undefined && cents > rule.maxCents) cents = rule.maxCents;
  return Math.max(0, Math.min(cents, unitCents * qty));
}

/** "12.5 %", "10 %", "$2.00 per unit", with the minimum and maximum: "10 %, at least $1.00, at most $20.00 a sale". */
export function describeRate(rule: Pick<CommissionRule, 'rate' | 'minCents' | 'maxCents'>): string {
  const base =
    rule.rate.kind === 'percent'
      ? `${formatPercent(rule.rate.basisPoints)}`
      : `${formatMoney(rule.rate.cents)} per unit`;
  const limits = [
    rule.minCents !== undefined ? `at least ${formatMoney(rule.minCents)}` : '',
    rule.maxCents !== undefined ? `at most ${formatMoney(rule.maxCents)}` : '',
  ].filter(Boolean);
  return limits.length ? `${base}, ${limits.join(', ')} a sale` : base;
}

/** 1250 → "12.5 %", 1000 → "10 %", 1234 → "12.34 %". */
export function formatPercent(basisPoints: number): string {
  const whole = Math.trunc(basisPoints / 100);
  const rest = basisPoints % 100;
  const fraction = rest === 0 ? '' : `.${String(rest).padStart(2, '0').replace(/0$/, '')}`;
  return `${whole}${fraction} %`;
}

/** "product Desk Lamp Pro", "brand Lumo", "group Top sellers", "everyone (the default)". */
export function describeScope(
  rule: Pick<CommissionRule, 'scope' | 'value'>,
  names: { product?: string; group?: string } = {},
): string {
  switch (rule.scope) {
    case 'product':
      return `product ${names.product ?? rule.value}`;
    case 'brand':
      return `brand ${rule.value}`;
    case 'group':
      return `group ${names.group ?? rule.value}`;
    case 'default':
      return 'everyone (the default)';
  }
}
