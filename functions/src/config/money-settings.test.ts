import { describe, expect, it } from 'vitest';
import { moneySettings } from './money-settings';
describe('money settings', () => {
  it('defaults', () => {
    expect(moneySettings({})).toEqual({
      COMMISSION_HOLD_DAYS: 14,
      PAYOUT_MINIMUM_CENTS: 1000,
      INSTANT_FEE_PAID_BY: 'member',
      SELF_PURCHASE: 'review',
    });
  });
  it('reads 0 hold days', () => {
    expect(moneySettings({ COMMISSION_HOLD_DAYS: '0' }).COMMISSION_HOLD_DAYS).toBe(0);
  });
  it('names each bad setting and what it accepts', () => {
    expect(() => moneySettings({ COMMISSION_HOLD_DAYS: '91', INSTANT_FEE_PAID_BY: 'nobody' })).toThrow(
      'Setting out of range: COMMISSION_HOLD_DAYS must be a whole number of days from 0 to 90; INSTANT_FEE_PAID_BY must be "member" or "platform"',
    );
    expect(() => moneySettings({ COMMISSION_HOLD_DAYS: '1.5' })).toThrow(/COMMISSION_HOLD_DAYS/);
  });
});
