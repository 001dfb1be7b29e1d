import { describe, expect, it } from 'vitest';
import { instantAmountBlock, instantFeeCents, instantSplit, plan, summary } from './batches';
import type { BatchOutcome } from '@portal/shared/api/payout-batches';
import type { BatchCommission } from './batch-store';

const c = (id: string, amountCents: number, from: BatchCommission['from'] = 'processing', nettedCents = 0) => ({
  id,
  amountCents,
  from,
  nettedCents,
  orderID: id,
  createdAt: '2026-11-01T00:00:00.000Z',
});

describe('plan: netting the clawback debt', () => {
  it('takes the debt from the processing commissions, oldest first, never below zero', () => {
    const planned = plan([c('a', 1000), c('b', 800), c('s', 300, 'in_stripe', 100), c('d', 700)], 1500, 'pay');
    expect(planned.commissions.map((x) => [x.id, x.nettedCents])).toEqual([
      ['a', 1000],
      ['b', 500],
      ['s', 100],
      ['d', 0],
    ]);
    expect(planned).toMatchObject({
      nettedCents: 1500,
      netTransferCents: 1000,
      payableCents: 1200,
      owedSeenCents: 1500,
    });
  });

  it('nets no more than the commissions carry, and a send takes only processing ones', () => {
    expect(plan([c('a', 400)], 5000, 'pay')).toMatchObject({ nettedCents: 400, netTransferCents: 0, payableCents: 0 });
    expect(plan([c('a', 400), c('s', 300, 'in_stripe')], 0, 'send').commissions.map((x) => x.id)).toEqual(['a']);
  });
});

describe('instant fee', () => {
  // docs.stripe.com/connect/instant-payouts ("Pricing"): 1 % billed to the platform; $0.50 and
  // $9,999 bound the payout, not the fee (decision 0270).
  it('is 1 % of the payout with no floor, and a member-paid split is exact to the cent', () => {
    expect(instantFeeCents(2500)).toBe(25);
    expect(instantFeeCents(10_000)).toBe(100);
    expect(instantFeeCents(50)).toBe(1);
    expect(instantSplit(6000, 'member')).toEqual({ payoutCents: 5941, feeCents: 59 });
    expect(instantSplit(1500, 'member')).toEqual({ payoutCents: 1485, feeCents: 15 });
    expect(instantSplit(6000, 'platform')).toEqual({ payoutCents: 6000, feeCents: 60 });
    for (const payable of [1000, 4999, 5051, 123_456]) {
      const { payoutCents, feeCents } = instantSplit(payable, 'member');
      // The member's fee is the rest of what they were owed: nothing lost or made up.
      expect(payoutCents + feeCents).toBe(payable);
      expect(feeCents).toBeGreaterThanOrEqual(instantFeeCents(payoutCents));
      expect(payoutCents + 1 + instantFeeCents(payoutCents + 1)).toBeGreaterThan(payable);
    }
  });

  it('refuses instant below $0.50 and above $9,999 in words', () => {
    expect(instantAmountBlock(49)).toBe('an instant payout is at least $0.50');
    expect(instantAmountBlock(50)).toBeNull();
    expect(instantAmountBlock(999_900)).toBeNull();
    expect(instantAmountBlock(999_901)).toBe('an instant payout is at most $9,999.00');
  });
});

describe("the summary of a batch for everyone (the admin's banner, npm run payouts:run)", () => {
  const of = (state: BatchOutcome['state']) => ({ state }) as BatchOutcome;
  it('agrees each count with its verb: "1 member needs attention", "2 members need attention"', () => {
    expect(summary([of('paid'), of('refused')], 0)).toBe('1 member done; 1 member needs attention (see below).');
    expect(summary([of('waiting'), of('busy'), of('sent')], 1)).toBe(
      '1 member done; 2 members need attention (see below); 1 member not reached in time: run it again.',
    );
    expect(summary([of('empty')], 0)).toBe('Nothing moved.');
  });
});
