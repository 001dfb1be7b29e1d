import { describe, expect, inject, it } from 'vitest';
import { stripeCheck } from '../../scripts/stripe-check';

/** `npm run stripe:check` against the emulator, through the real SDK. */
describe('npm run stripe:check', () => {
  it('walks the loop and prints each step with its ids', async () => {
    const lines: string[] = [];
    const steps = await stripeCheck(
      { STRIPE_SECRET_KEY: process.env.STRIPE_SECRET_KEY, STRIPE_API_URL: inject('stripeApiUrl') },
      (line) => lines.push(line),
    );
    expect(steps.map((step) => step.step)).toEqual([
      'Connected account (manual payouts)',
      'Debit card',
      'Account verified (transfers active)',
      'Payment (funds available at once)',
      'Transfer from its charge',
      'Payout (standard)',
      'Refund',
    ]);
    expect(steps[0]!.ids.account).toMatch(/^acct_/);
    expect(steps[3]!.ids.charge).toMatch(/^ch_/);
    expect(steps[4]!.ids.transfer).toMatch(/^tr_/);
    expect(steps[5]!.ids.payout).toMatch(/^po_/);
    expect(steps[6]!.ids.refund).toMatch(/^re_/);
    expect(lines.at(-1)).toBe('The loop went through.');
    expect(lines.some((line) => line.includes(steps[4]!.ids.transfer!))).toBe(true);
  });

  it('refuses a live key in a sentence, before calling Stripe', async () => {
    await expect(stripeCheck({ STRIPE_SECRET_KEY: 'sk_live_123' }, () => undefined)).rejects.toThrow(
      'This is a live key: the check makes real accounts, payments and payouts. Run it with a test key (sk_test_…).',
    );
  });
});
