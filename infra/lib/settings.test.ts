import { describe, expect, it } from 'vitest';
import { moneySettingsFromContext } from './settings';

describe('the money settings from CDK contexts', () => {
  it('passes the given ones on as the functions read them, and leaves the rest to their defaults', () => {
    const context: Record<string, unknown> = { commissionHoldDays: 30, instantFeePaidBy: 'platform' };
    expect(moneySettingsFromContext((key) => context[key])).toEqual({
      COMMISSION_HOLD_DAYS: '30',
      INSTANT_FEE_PAID_BY: 'platform',
    });
    expect(moneySettingsFromContext(() => undefined)).toEqual({});
  });

  it('stops the synth on a value out of range, naming the context to change', () => {
    expect(() => moneySettingsFromContext((key) => (key === 'commissionHoldDays' ? '120' : undefined))).toThrow(
      /COMMISSION_HOLD_DAYS must be a whole number of days from 0 to 90.*COMMISSION_HOLD_DAYS is the context commissionHoldDays/,
    );
  });
});
