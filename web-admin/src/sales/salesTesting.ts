import type { Commission, Order, OrderCounters } from '@portal/shared/api/sales';
import { authAnswer, fakeApi, type FakeApi } from '@portal/shared/test/testing';

/** Test factories for the orders and payouts screens, in the shapes of the contract (shared/src/api/sales.ts). */

export function order(overrides: Partial<Order> = {}): Order {
  return {
    id: 'o-1',
    orderID: 'RP-7F3K9Q2M',
    qty: 2,
    product_id: 'p-1',
    product_name: 'Trail Lantern',
    brand: 'Trailhead',
    product_image: 'https://img.example.test/lantern.jpg',
    spu_no: 'SPU-12345',
    product_url: 'https://supplier.example.test/p/12345',
    sell_price: 24.99,
    totalPayed: 49.98,
    customer: {
      name: 'Cara Diaz',
      email: 'cara@example.com',
      address: { line1: '12 Elm St', line2: 'Apt 4', city: 'Austin', state: 'TX', postal_code: '78701' },
    },
    member: { id: 'm-1', email: 'ann.lee@example.com' },
    source: 'checkout',
    isOrdered: 0,
    isShipped: 0,
    isFufilled: 0,
    created_at: '2026-11-21T20:08:00.000Z',
    refunded: 0,
    refundState: 'none',
    refundable: true,
    refunds: [],
    dispute: null,
    ...overrides,
  };
}

export function commission(overrides: Partial<Commission> = {}): Commission {
  return {
    id: 'c-1',
    amount: 5,
    product_id: 'p-1',
    product_name: 'Trail Lantern',
    order_id: 'o-1',
    orderID: 'RP-7F3K9Q2M',
    member: { id: 'm-1', email: 'ann.lee@example.com' },
    isPayed: 0,
    isInCustomersAccount: 0,
    state: 'processing',
    blockedReason: null,
    payoutFailure: null,
    created_at: '2026-11-21T20:08:00.000Z',
    status: 'available',
    availableAt: null,
    statusReason: null,
    originalAmount: overrides.amount ?? 5,
    ...overrides,
  };
}

export const counters = (overrides: Partial<OrderCounters> = {}): OrderCounters => ({
  all: 0,
  notOrdered: 0,
  notShipped: 0,
  notFulfilled: 0,
  ...overrides,
});

export const orderPage = (items: Order[], pageCounters = counters(), nextCursor: string | null = null) => ({
  body: { items, nextCursor, counters: pageCounters },
});

export const commissionPage = (items: Commission[], totals = { paid: 0, processing: 0, count: items.length }) => ({
  body: { items, nextCursor: null, totals },
});

/** A signed-in admin, and empty lists unless a test answers otherwise. */
export function salesApi(handlers: Parameters<typeof fakeApi>[0] = {}): FakeApi {
  return fakeApi({
    checkAuth: () => ({ body: authAnswer({ isAdmin: true, email: 'admin@example.com' }) }),
    getOrders: () => orderPage([]),
    getOrdersNotOrdered: () => orderPage([]),
    getOrdersNotShipped: () => orderPage([]),
    getOrdersNotFufilled: () => orderPage([]),
    getCommisions: () => commissionPage([]),
    getCommisionsToStripe: () => commissionPage([]),
    getCommisionsToBePayed: () => commissionPage([]),
    getTopEarners: () => ({ body: { items: [], nextCursor: null } }),
    getMemberDebts: () => ({ body: { items: [], nextCursor: null } }),
    getOrderPaymentCard: (request) => ({
      body: {
        orderId: String((request.body as { id: string }).id),
        card: { last4: '4242', brand: 'visa' },
        commission: { where: 'not_sent', amount: 5, originalAmount: 5 },
      },
    }),
    getMemberPayoutCard: (request) => ({
      body: {
        memberId: String((request.body as { memberId: string }).memberId),
        card: { last4: '5556', brand: 'Visa', instant: true },
      },
    }),
    ...handlers,
  });
}
