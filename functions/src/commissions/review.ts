import type { CommissionRecord } from '../orders/sales-store';
import { DomainError, conflict } from '../errors';

/**
 * An admin's decision on a commission held for review at its sale (orders/abuse.ts: a member
 * bought through their own link, or the product was banned before the payment): released back to
 * where it was, or cancelled (no commission; its amount kept as `originalCents`). Each write is
 * conditional on the commission as read: of two admins one decides, the other gets a 409 in words.
 * A dispute's hold (no `heldFor`) is decided by the dispute (commissions/refunds.ts).
 */
export interface ReviewStore {
  /** A page of the commissions held at their sale, newest first (gsi4 `COMMISSIONS#HELD`). */
  heldPage(
    cursor: string | undefined,
    limit: number,
  ): Promise<{ items: CommissionRecord[]; nextCursor: string | null }>;
  getCommission(id: string): Promise<CommissionRecord | undefined>;
  /** review → the status it was held from (order_open, or processing once its order was fulfilled). */
  release(commission: CommissionRecord, reason: string, now: string): Promise<boolean>;
  /** review → cancelled at 0, with its counters and the member's earnings taken down. */
  cancel(commission: CommissionRecord, reason: string, now: string): Promise<boolean>;
}

export interface ReviewDeps {
  store: ReviewStore;
  now: () => number;
}

export const NO_SUCH_COMMISSION = 'There is no commission with this id.';
export const NOT_HELD = 'This commission is no longer held for review: someone decided on it already.';
export const DISPUTE_HOLD =
  'This commission is held for a dispute: it is released or ended when Stripe closes the dispute.';

/** The reason the member and the admin read after the decision, from the reason of the hold. */
const decided = (decision: 'release' | 'cancel', held: string | null | undefined): string =>
  `${decision === 'release' ? 'Released' : 'Cancelled'} after review${held ? `: ${held.charAt(0).toLowerCase()}${held.slice(1)}` : ''}`;

export async function reviewHeldCommission(
  deps: ReviewDeps,
  id: string,
  decision: 'release' | 'cancel',
): Promise<CommissionRecord> {
  const commission = await deps.store.getCommission(id);
  if (!commission) throw new DomainError('not-found', NO_SUCH_COMMISSION);
  if (commission.status !== 'review') throw conflict(NOT_HELD);
  if (!commission.heldFor) throw conflict(DISPUTE_HOLD);
  const reason = decided(decision, commission.statusReason);
  const now = new Date(deps.now()).toISOString();
  const done =
    decision === 'release'
      ? await deps.store.release(commission, reason, now)
      : await deps.store.cancel(commission, reason, now);
  const after = await deps.store.getCommission(id);
  if (!done || !after) throw conflict(NOT_HELD);
  return after;
}
