import { describe, expect, it } from 'vitest';
import { batchKey, compare, type Snapshot } from './compare';
import type {
  LedgerBatch,
  LedgerCommission,
  LedgerOrder,
  StripeCharge,
  StripePayout,
  StripeRefund,
  StripeTransfer,
} from './records';

/** 2026-11-20 12:00 UTC. */
const NOV_20 = Date.UTC(2026, 10, 20, 12) / 1000;
const ACCOUNT = 'acct_jane';

const order = (overrides: Partial<LedgerOrder> = {}): LedgerOrder => ({
  id: 'o1',
  orderID: 'RP-AAAA1111',
  totalCents: 5000,
  paymentIntentId: 'pi_1',
  chargeId: 'ch_1',
  refundedCents: 0,
  refundIds: [],
  commissionId: 'c1',
  memberId: 'm1',
  createdAt: '2026-11-20T12:00:00.000Z',
  ...overrides,
});
const commission = (overrides: Partial<LedgerCommission> = {}): LedgerCommission => ({
  id: 'c1',
  orderId: 'o1',
  orderID: 'RP-AAAA1111',
  memberId: 'm1',
  status: 'paid',
  amountCents: 500,
  transferId: 'tr_1',
  payoutId: 'po_1',
  nettedCents: 0,
  batchId: null,
  settledBatchId: null,
  ...overrides,
});
const charge = (overrides: Partial<StripeCharge> = {}): StripeCharge => ({
  id: 'ch_1',
  amountCents: 5000,
  refundedCents: 0,
  paymentIntentId: 'pi_1',
  status: 'succeeded',
  created: NOV_20,
  ...overrides,
});
const transfer = (overrides: Partial<StripeTransfer> = {}): StripeTransfer => ({
  id: 'tr_1',
  amountCents: 500,
  reversedCents: 0,
  destination: ACCOUNT,
  created: NOV_20,
  metadata: { commissionId: 'c1', orderID: 'RP-AAAA1111', memberId: 'm1', attempt: '0' },
  reversals: [],
  ...overrides,
});
const payout = (overrides: Partial<StripePayout> = {}): StripePayout => ({
  id: 'po_1',
  accountId: ACCOUNT,
  amountCents: 500,
  status: 'paid',
  failure: null,
  created: NOV_20,
  metadata: { commissionId: 'c1', attempt: '0', orderID: 'RP-AAAA1111' },
  ...overrides,
});
const refund = (overrides: Partial<StripeRefund> = {}): StripeRefund => ({
  id: 're_1',
  amountCents: 1000,
  status: 'succeeded',
  chargeId: 'ch_1',
  paymentIntentId: 'pi_1',
  created: NOV_20,
  metadata: {},
  ...overrides,
});

/** One sale, its commission transferred and paid out, both sides agreeing; `change` edits either side. */
function snapshot(change: (s: Snapshot) => void = () => undefined): Snapshot {
  const s: Snapshot = {
    period: { charges: [charge()], refunds: [], transfers: [transfer()], payouts: [payout()] },
    stripe: {
      charges: new Map(),
      refunds: new Map(),
      transfers: new Map(),
      payouts: new Map(),
      accounts: new Map([[ACCOUNT, 'm1']]),
    },
    ledger: {
      orders: new Map([['o1', order()]]),
      commissions: new Map([['c1', commission()]]),
      batches: new Map(),
      members: new Map([['m1', { id: 'm1', name: 'Jane Doe', stripeID: ACCOUNT }]]),
      clawedBack: new Map(),
    },
  };
  change(s);
  // Stripe's objects known by id: the period's (a test adds others before).
  for (const one of s.period.charges) if (!s.stripe.charges.has(one.id)) s.stripe.charges.set(one.id, one);
  for (const one of s.period.refunds) if (!s.stripe.refunds.has(one.id)) s.stripe.refunds.set(one.id, one);
  for (const one of s.period.transfers) if (!s.stripe.transfers.has(one.id)) s.stripe.transfers.set(one.id, one);
  for (const one of s.period.payouts) if (!s.stripe.payouts.has(one.id)) s.stripe.payouts.set(one.id, one);
  return s;
}

describe('compare', () => {
  it('finds nothing where both sides agree', () => {
    expect(compare(snapshot())).toEqual([]);
  });

  it('lists a transfer made by hand in Stripe, in words, with the member', () => {
    const hand = transfer({ id: 'tr_hand', amountCents: 1200, metadata: {} });
    expect(compare(snapshot((s) => s.period.transfers.push(hand)))).toEqual([
      {
        kind: 'missing_in_ledger',
        subject: 'transfer',
        text: 'Transfer tr_hand of $12.00 to acct_jane (member Jane Doe) on 2026-11-20 is in Stripe but not in our ledger.',
        stripeIds: ['tr_hand', ACCOUNT],
        ledgerIds: [],
      },
    ]);
  });

  it('lists a second transfer made for a commission whose ledger names the first (a duplicate)', () => {
    const twice = transfer({ id: 'tr_2' });
    const [difference] = compare(snapshot((s) => s.period.transfers.push(twice)));
    expect(difference?.text).toBe(
      'Transfer tr_2 of $5.00 to acct_jane (member Jane Doe) on 2026-11-20, made for commission c1 (order RP-AAAA1111), which names tr_1, is in Stripe but not in our ledger.',
    );
  });

  it('lists a commission paid in our ledger whose payout failed in Stripe', () => {
    const failed = payout({ status: 'failed', failure: 'The card was declined.' });
    expect(compare(snapshot((s) => (s.period.payouts = [failed])))).toEqual([
      {
        kind: 'status',
        subject: 'payout',
        text: 'Commission c1 (order RP-AAAA1111, member Jane Doe) is paid in our ledger but payout po_1 of $5.00 is failed in Stripe (The card was declined.).',
        stripeIds: ['po_1', ACCOUNT],
        ledgerIds: ['c1', 'RP-AAAA1111'],
      },
    ]);
  });

  it('keeps quiet about a failed payout our ledger let go of (the commission back in Stripe)', () => {
    const failed = payout({ status: 'failed' });
    const back = commission({ status: 'in_stripe', payoutId: null });
    expect(
      compare(
        snapshot((s) => {
          s.period.payouts = [failed];
          s.ledger.commissions.set('c1', back);
        }),
      ),
    ).toEqual([]);
  });

  it('lists what our ledger names and Stripe does not have', () => {
    const differences = compare(
      snapshot((s) => {
        s.period.transfers = [];
        s.period.payouts = [];
      }),
    );
    expect(differences.map((one) => one.text)).toEqual([
      'Commission c1 (order RP-AAAA1111, member Jane Doe) names transfer tr_1 in our ledger, which is not in Stripe.',
      'Commission c1 (order RP-AAAA1111, member Jane Doe) names payout po_1 in our ledger, which is not in Stripe on acct_jane.',
    ]);
    expect(differences.every((one) => one.kind === 'missing_in_stripe')).toBe(true);
  });

  it('lists a charge in Stripe with no order, and an order whose charge is not in Stripe', () => {
    const stray = charge({ id: 'ch_stray', paymentIntentId: 'pi_stray', amountCents: 999 });
    expect(compare(snapshot((s) => s.period.charges.push(stray))).map((one) => one.text)).toEqual([
      'Charge ch_stray of $9.99 on 2026-11-20 (payment pi_stray) is in Stripe but not in our ledger.',
    ]);
    expect(compare(snapshot((s) => (s.period.charges = []))).map((one) => [one.kind, one.text])).toEqual([
      [
        'missing_in_stripe',
        'Order RP-AAAA1111 is paid by card in our ledger (charge ch_1) but the charge is not in Stripe.',
      ],
    ]);
  });

  it('lists amounts that differ: a charge, a transfer less its reversals, a payout', () => {
    const differences = compare(
      snapshot((s) => {
        s.period.charges = [charge({ amountCents: 5100 })];
        s.period.transfers = [transfer({ reversedCents: 100 })];
        s.period.payouts = [payout({ amountCents: 450 })];
      }),
    );
    expect(differences.map((one) => [one.kind, one.text])).toEqual([
      ['amount', 'Order RP-AAAA1111 is $50.00 in our ledger but its charge ch_1 is $51.00 in Stripe.'],
      [
        'amount',
        'Transfer tr_1 of commission c1 (order RP-AAAA1111, member Jane Doe) is $4.00 in Stripe ($5.00 less $1.00 reversed) but the commission keeps $5.00 in our ledger.',
      ],
      [
        'amount',
        'Payout po_1 of commission c1 (order RP-AAAA1111, member Jane Doe) is $4.50 in Stripe but $5.00 in our ledger.',
      ],
    ]);
  });

  it('counts a clawback as money the member keeps: a refund after payout reverses nothing', () => {
    const clawedBack = commission({ status: 'clawed_back', amountCents: 0 });
    const refunded = order({ refundedCents: 5000, refundIds: ['re_1'] });
    const clean = snapshot((s) => {
      s.ledger.commissions.set('c1', clawedBack);
      s.ledger.orders.set('o1', refunded);
      s.ledger.clawedBack.set('c1', 500);
      s.period.charges = [charge({ refundedCents: 5000 })];
      s.period.refunds = [refund({ amountCents: 5000 })];
    });
    expect(compare(clean)).toEqual([]);
  });

  it('lists one line for a refund made in Stripe that our ledger has not applied, not a second for the total', () => {
    const differences = compare(
      snapshot((s) => {
        s.period.charges = [charge({ refundedCents: 1000 })];
        s.period.refunds = [refund()];
      }),
    );
    expect(differences).toEqual([
      {
        kind: 'missing_in_ledger',
        subject: 'refund',
        text: 'Refund re_1 of $10.00 of charge ch_1 (order RP-AAAA1111) on 2026-11-20 is in Stripe but not in our ledger.',
        stripeIds: ['re_1', 'ch_1'],
        ledgerIds: ['RP-AAAA1111'],
      },
    ]);
  });

  it('lists a refund applied in our ledger that failed in Stripe', () => {
    const failed = refund({ status: 'failed' });
    const differences = compare(
      snapshot((s) => {
        s.ledger.orders.set('o1', order({ refundedCents: 1000, refundIds: ['re_1'] }));
        s.stripe.refunds.set('re_1', failed);
      }),
    );
    expect(differences.map((one) => [one.kind, one.text])).toEqual([
      ['status', 'Refund re_1 of $10.00 is applied to order RP-AAAA1111 in our ledger but is failed in Stripe.'],
    ]);
  });

  it('does not compare refunded totals where a lost dispute was applied as a refund (Stripe counts it apart)', () => {
    const disputed = order({ refundedCents: 5000, refundIds: ['dp_1'] });
    expect(compare(snapshot((s) => s.ledger.orders.set('o1', disputed)))).toEqual([]);
  });

  it('lists an order whose refunds and lost dispute take back more than its charge, and none where they do not', () => {
    const refunded = refund({ id: 're_1', amountCents: 1000, metadata: { orderId: 'o1' } });
    const over = snapshot((s) => {
      s.period.charges = [charge({ refundedCents: 1000, lostDisputes: [{ id: 'dp_1', amountCents: 5000 }] })];
      s.period.refunds = [refunded];
      s.ledger.orders.set('o1', order({ refundedCents: 5000, refundIds: ['re_1', 'dp_1'] }));
    });
    expect(compare(over).map((one) => [one.kind, one.subject, one.text, one.stripeIds])).toEqual([
      [
        'amount',
        'refund',
        'Order RP-AAAA1111 is refunded beyond its payment in Stripe: refunds of $10.00 and a lost dispute of $50.00, $60.00 taken back of a $50.00 charge ($10.00 more than was paid). Ask the customer to pay the difference back, or count it as a loss.',
        ['ch_1', 'dp_1'],
      ],
    ]);
    const within = snapshot((s) => {
      s.period.charges = [charge({ refundedCents: 1000, lostDisputes: [{ id: 'dp_1', amountCents: 4000 }] })];
      s.period.refunds = [refunded];
      s.ledger.orders.set('o1', order({ refundedCents: 5000, refundIds: ['re_1', 'dp_1'] }));
    });
    expect(compare(within)).toEqual([]);
  });

  it('lists a reversal made by hand, and none for one of a refund our ledger applied', () => {
    const ours = {
      id: 'trr_ours',
      transferId: 'tr_1',
      amountCents: 100,
      created: NOV_20,
      metadata: { commissionId: 'c1', orderId: 'o1', refundId: 're_1' },
    };
    const hand = { ...ours, id: 'trr_hand', metadata: {} };
    const differences = compare(
      snapshot((s) => {
        s.period.transfers = [transfer({ reversedCents: 200, reversals: [ours, hand] })];
        s.ledger.orders.set('o1', order({ refundedCents: 1000, refundIds: ['re_1'] }));
        s.ledger.commissions.set('c1', commission({ status: 'in_stripe', amountCents: 300, payoutId: null }));
        s.period.charges = [charge({ refundedCents: 1000 })];
        s.stripe.refunds.set('re_1', refund());
        s.period.payouts = [];
      }),
    );
    expect(differences.map((one) => one.text)).toEqual([
      'Reversal trr_hand of $1.00 of transfer tr_1 to acct_jane (member Jane Doe) on 2026-11-20 is in Stripe but not in our ledger.',
    ]);
  });

  it('compares a payout batch’s transfer and payout with what the batch recorded', () => {
    const batch: LedgerBatch = {
      batchId: 'daily-2026-11-20',
      memberId: 'm1',
      state: 'paid',
      transfers: [{ id: 'tr_b', amountCents: 900 }],
      payoutId: 'po_b',
      payoutCents: 900,
    };
    const batchTransfer = transfer({
      id: 'tr_b',
      amountCents: 950,
      metadata: { batchId: batch.batchId, memberId: 'm1' },
    });
    const batchPayout = payout({
      id: 'po_b',
      amountCents: 900,
      status: 'failed',
      metadata: { batchId: batch.batchId, memberId: 'm1' },
    });
    const differences = compare(
      snapshot((s) => {
        s.ledger.batches.set(batchKey(batch.batchId, 'm1'), batch);
        s.period.transfers.push(batchTransfer);
        s.period.payouts.push(batchPayout);
      }),
    );
    expect(differences.map((one) => one.text)).toEqual([
      'Payout batch daily-2026-11-20 (member Jane Doe) sent $9.00 in our ledger but transfer tr_b is $9.50 in Stripe.',
      'Payout batch daily-2026-11-20 (member Jane Doe) is paid in our ledger but payout po_b of $9.00 is failed in Stripe.',
    ]);
  });

  it('lists a payout made by hand from a member’s account, and not a failed one (no money moved)', () => {
    const hand = payout({ id: 'po_hand', amountCents: 2500, metadata: {} });
    const failedHand = payout({ id: 'po_failed', status: 'failed', metadata: {} });
    expect(compare(snapshot((s) => s.period.payouts.push(hand, failedHand))).map((one) => one.text)).toEqual([
      'Payout po_hand of $25.00 from acct_jane (member Jane Doe) on 2026-11-20 (paid) is in Stripe but not in our ledger.',
    ]);
  });
});
