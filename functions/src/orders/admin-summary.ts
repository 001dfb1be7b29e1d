import type { AdminSummary } from '@portal/shared/api/admin';
import type { BoundedCount, ProductRepository } from '../products/product-store';
import type { SalesStore } from './sales-store';

/** The most failed payouts or products in review the home counts; beyond, it says "500+". */
export const SUMMARY_COUNT_CAP = 500;

export interface SummaryDeps {
  sales: Pick<SalesStore, 'orderCounts' | 'commissionCounts'>;
  products: Pick<ProductRepository, 'reviewCount'>;
  failedPayouts: (cap: number) => Promise<BoundedCount>;
}

const dollars = (cents: number): number => cents / 100;

/**
 * The admin home's figures, read side by side: the order and commission counters (the sums of
 * their shards, kept in the transactions that move what they count) and two bounded COUNT Queries.
 */
export async function adminSummary(deps: SummaryDeps): Promise<AdminSummary> {
  const [orders, commissions, failedPayouts, productsInReview] = await Promise.all([
    deps.sales.orderCounts(),
    deps.sales.commissionCounts(),
    deps.failedPayouts(SUMMARY_COUNT_CAP),
    deps.products.reviewCount(SUMMARY_COUNT_CAP),
  ]);
  return {
    orders: { toOrder: orders.notOrdered, toShip: orders.notShipped, toFulfil: orders.notFulfilled },
    commissions: {
      toSend: commissions.toStripeCount,
      toSendAmount: dollars(commissions.toStripeCents),
      toPay: commissions.toBePaidCount,
      toPayAmount: dollars(commissions.toBePaidCents),
    },
    failedPayouts,
    productsInReview,
  };
}
