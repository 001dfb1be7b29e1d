import type { Commission, CommissionPage } from '@portal/shared/api/sales';

/** A commission as getCommisionsByUser answers it, for the UI tests. */
export function commission(overrides: Partial<Commission> = {}): Commission {
  return {
    id: 'c-1',
    amount: 2.59,
    product_id: 'p-1',
    product_name: 'Merino Wool Crew Socks (3 Pack)',
    order_id: 'o-1',
    orderID: 'RP-7F3K9Q2M',
    member: { id: 'user-1', email: 'ann.lee@example.com' },
    isPayed: 0,
    isInCustomersAccount: 0,
    state: 'processing',
    blockedReason: null,
    payoutFailure: null,
    created_at: '2026-11-21T20:08:00.000Z',
    status: 'available',
    availableAt: null,
    statusReason: null,
    originalAmount: overrides.amount ?? 2.59,
    ...overrides,
  };
}

export function commissionPage(
  items: Commission[] = [],
  totals: Partial<CommissionPage['totals']> = {},
  nextCursor: string | null = null,
): CommissionPage {
  return { items, nextCursor, totals: { paid: 0, processing: 0, count: items.length, ...totals } };
}
