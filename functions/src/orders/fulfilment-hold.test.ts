import { describe, expect, it } from 'vitest';
import type { CommissionStatus } from '@portal/shared/domain/sales-status';
import { holdOnFulfilment, markOrder } from './manage';
import type { CommissionRecord, FulfilmentHold, OrderRecord, SalesStore } from './sales-store';

const DAY = 86_400_000;
const at = Date.parse('2026-12-01T12:00:00Z');

describe('holdOnFulfilment: a fulfilled order puts its commission on hold', () => {
  it('an open commission: on hold until the end of the refund window, to processing', () => {
    expect(holdOnFulfilment({ status: 'order_open' }, at + 14 * DAY)).toEqual({
      availableAt: at + 14 * DAY,
      underReview: false,
    });
  });

  it('held for review while its order was open: the review stays, the hold waits for its release', () => {
    expect(holdOnFulfilment({ status: 'review', heldFrom: 'order_open' }, at)).toEqual({
      availableAt: at,
      underReview: true,
    });
  });

  it.each<[CommissionStatus, CommissionStatus | undefined]>([
    ['cancelled', undefined],
    ['processing', undefined],
    ['in_stripe', undefined],
    ['paid', undefined],
    ['review', 'processing'],
  ])('a %s commission (held from %s) stays as it is', (status, heldFrom) => {
    expect(holdOnFulfilment({ status, ...(heldFrom ? { heldFrom } : {}) }, at)).toBeUndefined();
  });
});

describe('markOrder hands the hold to the store', () => {
  const order = { id: 'o1', status: 'fulfilled', refunds: [] } as unknown as OrderRecord;
  function store() {
    const calls: { step: string; now: string; hold?: (c: CommissionRecord) => FulfilmentHold | undefined }[] = [];
    const sales = {
      markOrder: async (_id: string, step: string, now: string, _shipment: unknown, hold?: never) => {
        calls.push({ step, now, hold });
        return { outcome: 'done', order };
      },
    } as unknown as SalesStore;
    return { sales, calls };
  }

  it('fulfilment: the hold starts at the mark, COMMISSION_HOLD_DAYS long', async () => {
    const { sales, calls } = store();
    await markOrder(sales, 'o1', 'fulfilled', at, undefined, 7 * DAY);
    expect(calls[0]!.now).toBe(new Date(at).toISOString());
    expect(calls[0]!.hold?.({ status: 'order_open' } as CommissionRecord)).toEqual({
      availableAt: at + 7 * DAY,
      underReview: false,
    });
  });

  it('ordered and shipped move no commission', async () => {
    const { sales, calls } = store();
    await markOrder(sales, 'o1', 'ordered', at);
    await markOrder(sales, 'o1', 'shipped', at);
    expect(calls.map((call) => call.hold)).toEqual([undefined, undefined]);
  });
});
