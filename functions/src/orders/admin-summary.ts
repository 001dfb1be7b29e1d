import type { AdminSummary } from '@portal/shared/api/admin';
import type { BoundedCount, ProductRepository } from '../products/product-store';
import type { SalesStore } from './sales-store';

/** The most failed payouts or products in review the home counts; beyond, it says "500+". */
export const SUMMARY_COUNT_CAP = 500;

/** What the two commission lists hold that the admin can act on now: a count and its cents each. */
export interface CommissionWork {
  toSend: { count: number; cents: number };
  toPay: { count: number; cents: number };
}

export interface SummaryDeps {
  sales: Pick<SalesStore, 'orderCounts'>;
  products: Pick<ProductRepository, 'reviewCount'>;
  failedPayouts: (cap: number) => Promise<BoundedCount>;
  /** The commissions that can be sent to Stripe at `now` and those that can be paid out. */
  commissionWork: (now: number) => Promise<CommissionWork>;
  now: () => number;
}

const dollars = (cents: number): number => cents / 100;

/**
 * The admin home's figures, read side by side: the order counters (the sums of their shards, kept
 * in the transactions that move what they count; an order refunded in full is in no work list),
 * what each commission list holds that can be acted on now (sent: past its hold and not held for
 * review; paid: in the member's Stripe balance, not held), and two bounded COUNT Queries. Each
 * figure is what its link's list lets the admin act on.
 */
export async function adminSummary(deps: SummaryDeps): Promise<AdminSummary> {
  const [orders, commissions, failedPayouts, productsInReview] = await Promise.all([
    deps.sales.orderCounts(),
    deps.commissionWork(deps.now()),
    deps.failedPayouts(SUMMARY_COUNT_CAP),
    deps.products.reviewCount(SUMMARY_COUNT_CAP),
  ]);
  return {
    orders: { toOrder: orders.notOrdered, toShip: orders.notShipped, toFulfil: orders.notFulfilled },
    commissions: {
      toSend: commissions.toSend.count,
      toSendAmount: dollars(commissions.toSend.cents),
      toPay: commissions.toPay.count,
      toPayAmount: dollars(commissions.toPay.cents),
    },
    failedPayouts,
    productsInReview,
  };
}
