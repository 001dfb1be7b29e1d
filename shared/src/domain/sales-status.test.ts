import { describe, expect, it } from 'vitest';
import { commissionShareOfRefund } from './money';
import { commissionIs, commissionMove, commissionSendable, orderMove, updateExpression } from '../db/sales-status';
import {
  COMMISSION_STATUSES,
  FULL_REFUND_EXIT,
  commissionStatusText,
  LIVE_COMMISSION_STATUSES,
  ORDER_STATUSES,
  isSendable,
  presentedStatus,
  commissionFlags,
  commissionState,
  commissionStatusOf,
  orderFlags,
  orderStatusOf,
  orderStepFrom,
} from './sales-status';

describe('the order status', () => {
  it('gives the spec’s flags, each step done so far', () => {
    expect(ORDER_STATUSES.map(orderFlags)).toEqual([
      { isOrdered: 0, isShipped: 0, isFufilled: 0 },
      { isOrdered: 1, isShipped: 0, isFufilled: 0 },
      { isOrdered: 1, isShipped: 1, isFufilled: 0 },
      { isOrdered: 1, isShipped: 1, isFufilled: 1 },
    ]);
  });

  it('reads an item stored with flags only, and prefers a stored status', () => {
    for (const status of ORDER_STATUSES) expect(orderStatusOf({ ...orderFlags(status) })).toBe(status);
    expect(orderStatusOf({ status: 'shipped', isOrdered: 0 })).toBe('shipped');
    expect(orderStatusOf({ status: 'nonsense', isOrdered: 1, isShipped: 0 })).toBe('ordered');
  });

  it('has one way into each mark', () => {
    expect([orderStepFrom('ordered'), orderStepFrom('shipped'), orderStepFrom('fulfilled')]).toEqual([
      'not_ordered',
      'ordered',
      'shipped',
    ]);
  });
});

describe('the commission status', () => {
  it('gives the spec’s flags and the API’s state', () => {
    expect(
      COMMISSION_STATUSES.map((status) => ({ ...commissionFlags(status), state: commissionState(status) })),
    ).toEqual([
      { orderFulfilled: 0, isInCustomersAccount: 0, isPayed: 0, state: 'processing' },
      { orderFulfilled: 1, isInCustomersAccount: 0, isPayed: 0, state: 'processing' },
      { orderFulfilled: 1, isInCustomersAccount: 1, isPayed: 0, state: 'in_stripe' },
      { orderFulfilled: 1, isInCustomersAccount: 1, isPayed: 1, state: 'paid' },
      // The side exits and a held commission: nothing of them is in the member's balance or paid.
      { orderFulfilled: 1, isInCustomersAccount: 0, isPayed: 0, state: 'processing' },
      { orderFulfilled: 1, isInCustomersAccount: 0, isPayed: 0, state: 'processing' },
      { orderFulfilled: 1, isInCustomersAccount: 0, isPayed: 0, state: 'processing' },
      { orderFulfilled: 1, isInCustomersAccount: 0, isPayed: 0, state: 'processing' },
    ]);
  });

  it('reads an item stored with flags only (the four statuses of before), and a stored later status as it is', () => {
    for (const status of LIVE_COMMISSION_STATUSES) {
      expect(commissionStatusOf({ ...commissionFlags(status) })).toBe(status);
    }
    for (const status of ['cancelled', 'reversed', 'clawed_back', 'review'] as const) {
      expect(commissionStatusOf({ status })).toBe(status);
    }
  });

  it('presents a fulfilled commission on hold before its availableAt and available from it', () => {
    const at = Date.parse('2026-12-10T00:00:00Z');
    expect(presentedStatus('processing', at, at - 1)).toBe('on_hold');
    expect(presentedStatus('processing', at, at)).toBe('available');
    expect(presentedStatus('processing', undefined, at)).toBe('available');
    expect(presentedStatus('order_open', undefined, at)).toBe('waiting_for_fulfilment');
    expect(presentedStatus('clawed_back', at, at)).toBe('clawed_back');
    expect(isSendable('processing', at, at - 1)).toBe(false);
    expect(isSendable('review', undefined, at)).toBe(false);
  });

  it('takes a full refund to cancelled, reversed or clawed back by how far the money went', () => {
    expect(FULL_REFUND_EXIT).toEqual({
      order_open: 'cancelled',
      processing: 'cancelled',
      in_stripe: 'reversed',
      paid: 'clawed_back',
    });
    for (const [from, to] of Object.entries(FULL_REFUND_EXIT))
      expect(() => commissionMove(from as never, to)).not.toThrow();
    // A failed refund brings a cancelled commission back where its order is (decision 0340), nowhere else.
    expect(() => commissionMove('cancelled', 'processing')).not.toThrow();
    expect(() => commissionMove('cancelled', 'order_open')).not.toThrow();
    expect(() => commissionMove('cancelled', 'in_stripe')).toThrow();
    expect(() => commissionMove('reversed', 'in_stripe')).toThrow();
  });

  it('builds the sendable condition: in processing and past the hold, or stored before the hold', () => {
    const sendable = commissionSendable(1234);
    expect(sendable.condition).toContain('attribute_not_exists(#availableAt) OR #availableAt <= :sendableNow');
    expect(sendable.values[':sendableNow']).toBe(1234);
    expect(sendable.values[':statusFrom']).toBe('processing');
    // A status that never had flags matches by its status only.
    expect(commissionIs('review').condition).toBe('(#status = :statusFrom)');
  });
});

describe('the status writes built from the transition tables', () => {
  it('refuse a move the table does not have', () => {
    expect(() => orderMove('not_ordered', 'shipped')).toThrow('No order transition not_ordered → shipped');
    expect(() => orderMove('fulfilled', 'shipped')).toThrow();
    expect(() => commissionMove('order_open', 'in_stripe')).toThrow('No commission transition order_open → in_stripe');
    expect(() => commissionMove('paid', 'processing')).toThrow();
  });

  it('condition a move on the status, or on the flags of an item stored before it, and drop the flags', () => {
    const move = orderMove('shipped', 'fulfilled');
    expect(move.condition).toBe(
      '(#status = :statusFrom OR (attribute_not_exists(#status) AND #legacy_isShipped = :legacy1 AND #legacy_isFufilled = :legacy0))',
    );
    expect(move.values).toEqual({ ':statusFrom': 'shipped', ':statusTo': 'fulfilled', ':legacy1': 1, ':legacy0': 0 });
    expect(move.names).toEqual({
      '#status': 'status',
      '#legacy_isShipped': 'isShipped',
      '#legacy_isFufilled': 'isFufilled',
    });
    expect(updateExpression(move, ['updatedAt = :now'], ['gsi2pk'])).toBe(
      'SET #status = :statusTo, updatedAt = :now REMOVE isOrdered, isShipped, isFufilled, gsi2pk',
    );
  });

  it('check a commission’s status without moving it', () => {
    const paid = commissionIs('paid');
    expect(paid.condition).toBe(
      '(#status = :statusFrom OR (attribute_not_exists(#status) AND #legacy_isPayed = :legacy1))',
    );
    expect(paid.values).toEqual({ ':statusFrom': 'paid', ':legacy1': 1 });
  });
});

describe('the commission status in words', () => {
  it('names the day a commission on hold becomes available, and the reason of a side exit', () => {
    const base = { availableAt: null, statusReason: null, payoutFailure: null };
    expect(commissionStatusText({ ...base, status: 'on_hold', availableAt: '2026-12-10T15:00:00.000Z' })).toBe(
      'On hold until December 10th, 2026',
    );
    expect(commissionStatusText({ ...base, status: 'available' })).toBe('Available');
    // A standard payout is in transit until its arrival date (docs.stripe.com/api/payouts/object).
    expect(commissionStatusText({ ...base, status: 'paid', payoutExpected: '2026-12-01T00:00:00.000Z' })).toBe(
      'Paid: on its way, expected December 1st, 2026',
    );
    expect(commissionStatusText({ ...base, status: 'paid', payoutExpected: null })).toBe('Paid');
    // Sentences built from parts: one period between them, never two.
    expect(
      commissionStatusText({
        ...base,
        status: 'in_stripe',
        statusReason: 'Order RP-1 partly refunded: the commission was reduced by $5.00.',
        payoutFailure: 'The bank could not process this payout.',
      }),
    ).toMatch(/reduced by \$5\.00\. Payout failed: The bank could not process this payout\.$/);
    expect(commissionStatusText({ ...base, status: 'clawed_back', statusReason: 'Order RP-1 refunded in full.' })).toBe(
      'Clawed back. Order RP-1 refunded in full.',
    );
  });
});

describe('a commission’s share of refunds', () => {
  it('is round half up of C × R / T, and partial refunds add up to the whole commission exactly', () => {
    expect(commissionShareOfRefund(999, 1234, 9999)).toBe(123);
    expect(commissionShareOfRefund(500, 1999, 4998)).toBe(200);
    expect(commissionShareOfRefund(1, 1, 2)).toBe(1); // 0.5 rounds up
    for (let seed = 1; seed < 200; seed++) {
      const total = 100 + ((seed * 7919) % 50_000);
      const commission = Math.round(total / 10);
      // Each partial refund takes what the running total adds: never negative, all of it at the end.
      let refunded = 0;
      let before = 0;
      while (refunded < total) {
        refunded = Math.min(total, refunded + 1 + ((seed * refunded + 31) % 997));
        const share = commissionShareOfRefund(commission, refunded, total);
        expect(share).toBeGreaterThanOrEqual(before);
        before = share;
      }
      expect(before).toBe(commission);
    }
  });
});
