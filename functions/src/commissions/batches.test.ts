import { describe, expect, it } from 'vitest';
import { instantFeeCents, instantSplit, plan } from './batches';
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
  it('is 1 % of the payout, at least 50¢, and a member-paid split leaves nothing behind', () => {
    expect(instantFeeCents(2500)).toBe(50);
    expect(instantFeeCents(10_000)).toBe(100);
    expect(instantSplit(6000, 'member')).toEqual({ payoutCents: 5941, feeCents: 59 });
    expect(instantSplit(1500, 'member')).toEqual({ payoutCents: 1450, feeCents: 50 });
    expect(instantSplit(6000, 'platform')).toEqual({ payoutCents: 6000, feeCents: 60 });
    for (const payable of [1000, 4999, 5051, 123_456]) {
      const { payoutCents, feeCents } = instantSplit(payable, 'member');
      expect(payoutCents + feeCents).toBeLessThanOrEqual(payable);
      expect(payoutCents + 1 + instantFeeCents(payoutCents + 1)).toBeGreaterThan(payable);
    }
  });
});
