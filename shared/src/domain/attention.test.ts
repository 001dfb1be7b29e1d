import { describe, expect, it } from 'vitest';
import { attentionReasons, attentionSummary } from './attention';

describe('attentionReasons', () => {
  it.each([
    [{ isAccountCreated: 0, isPayoutMethodAdded: 0 }, ['Create your payout account', 'Add a debit card']],
    [{ isAccountCreated: 0, isPayoutMethodAdded: 1 }, ['Create your payout account']],
    [{ isAccountCreated: 1, isPayoutMethodAdded: 0 }, ['Add a debit card']],
    [{ isAccountCreated: 1, isPayoutMethodAdded: 1 }, []],
  ] as const)('%o -> %o', (profile, reasons) => {
    expect(attentionReasons(profile)).toEqual(reasons);
  });

  it('asks an administrator only once they chose to sell (created the payout account)', () => {
    expect(attentionReasons({ isAdmin: true, isAccountCreated: 0, isPayoutMethodAdded: 0 })).toEqual([]);
    expect(attentionReasons({ isAdmin: true, isAccountCreated: 1, isPayoutMethodAdded: 0 })).toEqual([
      'Add a debit card',
    ]);
    expect(attentionReasons({ isAdmin: false, isAccountCreated: 0, isPayoutMethodAdded: 0 })).toHaveLength(2);
  });

  it('has nothing to say without a profile', () => {
    expect(attentionReasons(null)).toEqual([]);
    expect(attentionReasons(undefined)).toEqual([]);
  });

  it('sums the reasons up in one sentence per step', () => {
    expect(attentionSummary(['Create your payout account', 'Add a debit card'])).toBe(
      'Action needed: Create your payout account. Add a debit card.',
    );
    expect(attentionSummary([])).toBe('');
  });
});
