import { describe, expect, it } from 'vitest';
import {
  SPEC_DEFAULT_RULE,
  describeRate,
  formatPercent,
  pickRule,
  ruleCommissionCents,
  type CommissionRule,
} from './commission-rules';
import { youMakeCents } from './money';

const rule = (id: string, scope: CommissionRule['scope'], value: string, createdAt: string, basisPoints = 1000) =>
  ({ id, scope, value, rate: { kind: 'percent', basisPoints }, createdAt }) satisfies CommissionRule;

describe('ruleCommissionCents', () => {
  it('is the spec’s You Make × qty at the default 10 %, for every price up to $1,000.00', () => {
    const mismatches: number[] = [];
    for (let cents = 0; cents <= 100_000; cents++) {
      if (ruleCommissionCents(SPEC_DEFAULT_RULE, cents, 3) !== youMakeCents(cents) * 3) mismatches.push(cents);
    }
    expect(mismatches).toEqual([]);
  });

  it('rounds a percentage half up per unit, then applies the quantity, the minimum and the maximum', () => {
    const lumo = { rate: { kind: 'percent', basisPoints: 1250 } } as const;
    expect(ruleCommissionCents(lumo, 2420, 1)).toBe(303); // 302.5 -> 303
    expect(ruleCommissionCents(lumo, 3333, 3)).toBe(1251); // 416.625 -> 417, x 3
    expect(ruleCommissionCents({ ...lumo, maxCents: 500 }, 2420, 3)).toBe(500);
    expect(ruleCommissionCents({ ...lumo, minCents: 400 }, 2420, 1)).toBe(400);
    expect(ruleCommissionCents({ rate: { kind: 'fixed', cents: 300 } }, 2420, 2)).toBe(600);
    // Never more than the sale.
    expect(ruleCommissionCents({ rate: { kind: 'fixed', cents: 900 } }, 500, 2)).toBe(1000);
  });
});

describe('pickRule', () => {
  const rules = [
    rule('g2', 'group', 'early', '2026-01-01T00:00:00.000Z', 2000),
    rule('g1', 'group', 'top', '2026-01-02T00:00:00.000Z', 3000),
    rule('b', 'brand', 'Lumo', '2026-01-03T00:00:00.000Z', 1500),
    rule('p', 'product', 'lamp', '2026-01-04T00:00:00.000Z', 1800),
  ];
  it('takes product over brand over group over the default, and the oldest of two group rules', () => {
    expect(pickRule(rules, { productId: 'lamp', brand: 'Lumo', groupIds: ['top'] }).id).toBe('p');
    expect(pickRule(rules, { productId: 'shade', brand: ' lumo ', groupIds: ['top'] }).id).toBe('b');
    expect(pickRule(rules, { productId: 'kettle', brand: 'Brewco', groupIds: ['top', 'early'] }).id).toBe('g2');
    expect(pickRule(rules, { productId: 'kettle', brand: 'Brewco', groupIds: ['top'] }).id).toBe('g1');
    expect(pickRule(rules, { productId: 'kettle', brand: 'Brewco', groupIds: [] })).toBe(SPEC_DEFAULT_RULE);
  });
});

describe('the words', () => {
  it('says a rate as the screens show it', () => {
    expect(formatPercent(1250)).toBe('12.5 %');
    expect(formatPercent(1000)).toBe('10 %');
    expect(formatPercent(1234)).toBe('12.34 %');
    expect(describeRate({ rate: { kind: 'fixed', cents: 250 }, minCents: 100, maxCents: 2000 })).toBe(
      '$2.50 per unit, at least $1.00, at most $20.00 a sale',
    );
  });
});
