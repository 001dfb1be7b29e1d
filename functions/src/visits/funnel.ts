import type { VisitStore } from './visit-store';
import { dayOf, statsExpiry } from './days';

/**
 * The funnel's later steps (issue 39): a checkout started from a counted visit, and a sale, each
 * counted once into the day's link statistics.
 */

export interface FunnelDeps {
  store: Pick<VisitStore, 'getVisit' | 'markCheckout' | 'add' | 'addSaleOnce' | 'commissionCents'>;
  now: () => number;
}

/**
 * The checkout's visit: the visit id when it names a counted visit of this product (else undefined:
 * the checkout goes on without it), its checkout counted the first time only.
 */
export async function checkoutStarted(
  deps: FunnelDeps,
  visitId: string,
  productId: string,
): Promise<string | undefined> {
  const visit = await deps.store.getVisit(visitId);
  if (!visit || visit.productId !== productId) return undefined;
  const nowMs = deps.now();
  if (await deps.store.markCheckout(visitId, new Date(nowMs).toISOString())) {
    const target = { day: dayOf(nowMs), productId, memberId: visit.memberId };
    await deps.store.add(target, { checkouts: 1 }, statsExpiry(nowMs));
  }
  return visitId;
}

/** The part of a recorded order the statistics read. */
export interface SoldOrder {
  id: string;
  product_id: string;
  memberId: string | null;
  commissionId: string | null;
  totalCents: number;
  createdAt: string;
  visitId?: string;
}

/**
 * A recorded sale into the statistics of its day, once per order however often it is reported (the
 * marker is in the counts' transaction): a sale, what was paid, the commission as stored (whatever
 * rule or discount made it), and `paid` when a counted visit led to it.
 */
export async function saleCounted(deps: FunnelDeps, order: SoldOrder): Promise<boolean> {
  const earningsCents = order.commissionId ? await deps.store.commissionCents(order.commissionId) : 0;
  const atMs = Date.parse(order.createdAt);
  return deps.store.addSaleOnce(
    order.id,
    { day: dayOf(atMs), productId: order.product_id, memberId: order.memberId },
    { sales: 1, salesCents: order.totalCents, earningsCents, paid: order.visitId ? 1 : 0 },
    statsExpiry(atMs),
  );
}
