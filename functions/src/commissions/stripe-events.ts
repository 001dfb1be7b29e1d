import type { DisputeFacts, RefundFailedFacts } from '../email/templates';
import type { PaymentGateway } from '../payments/payment-gateway';
import type { MoneyEvent, SaleEvent } from '../payments/payouts';
import { onBatchPayoutFailed, onBatchPayoutPaid } from './batch-events';
import type { MemberBatch, PayoutBatchStore } from './batch-store';
import { onMoneyEvent, type MoneyDeps } from './money-movement';
import { onChargeRefunded, onDispute, onRefundUpdated, refundFailureWords, type RefundDeps } from './refunds';

/**
 * What each Stripe event about a commission's money does, and whom it tells: the webhooks'
 * decisions (composition.ts only wires them). The ledger moves first; then the notice, which the
 * notifications capability turns into its mail (notifications/stripe-notices.ts). A notice that
 * cannot be sent yet throws, so Stripe delivers the event again and the ledger's move, applied
 * once, is not repeated.
 */

/** The admins' notices of a sale's refunds and disputes. */
export type SaleNotice =
  { kind: 'refund-failed'; facts: RefundFailedFacts } | { kind: 'dispute-opened'; facts: DisputeFacts };

export interface SaleEventDeps extends RefundDeps {
  tell: (notice: SaleNotice) => Promise<void>;
}

/** The commission's words when a second event reports a refund failure the first one applied. */
export const FAILURE_APPLIED_BEFORE = 'The commission was set right when this refund failure was first applied.';

/**
 * `charge.refunded`, `refund.updated` (and its kin), `charge.dispute.created` / `.closed`: the
 * order and its commission follow (refunds.ts); a failed refund tells the admins (once per
 * refund), and so does a dispute opened (once per event, naming its order when the portal has it).
 */
export async function onSaleEvent(deps: SaleEventDeps, event: SaleEvent): Promise<void> {
  if (event.kind === 'charge.refunded') return onChargeRefunded(deps, event.paymentIntentId);
  if (event.kind === 'refund.updated') {
    // Pending → succeeded, or failed: the order and commission follow, then the admins' notice.
    const failed = await onRefundUpdated(deps, event.refund);
    if (event.refund.status !== 'failed') return;
    // A second event about one failure: the first applied it; the order as it stands now.
    const order = failed ?? (await orderOfPayment(deps, event.refund.paymentIntentId));
    if (!order) return;
    return deps.tell({
      kind: 'refund-failed',
      facts: {
        refundId: event.refund.refundId,
        orderID: order.orderID,
        amountCents: failed?.amountCents ?? event.refund.amountCents,
        failure: refundFailureWords(event.refund.failureReason),
        refundedCents: order.refundedCents,
        totalCents: order.totalCents,
        commission: failed?.commission ?? FAILURE_APPLIED_BEFORE,
        backInList: failed?.backInList ?? null,
      },
    });
  }
  await onDispute(deps, event.dispute);
  if (event.kind !== 'charge.dispute.created') return;
  const { disputeId, chargeId, amountCents, reason, paymentIntentId, evidenceDueBy } = event.dispute;
  // The notice names the order and links to its card (onDispute found it, or answered non-2xx).
  const order = paymentIntentId ? await deps.store.orderOfPayment(paymentIntentId) : undefined;
  return deps.tell({
    kind: 'dispute-opened',
    facts: {
      eventId: event.id,
      disputeId,
      chargeId,
      amountCents,
      reason,
      evidenceDueBy: evidenceDueBy ?? null,
      orderID: order?.orderID ?? null,
    },
  });
}

async function orderOfPayment(deps: SaleEventDeps, paymentIntentId: string | null) {
  const order = paymentIntentId ? await deps.store.orderOfPayment(paymentIntentId) : undefined;
  return order && { orderID: order.orderID, refundedCents: order.refundedCents ?? 0, totalCents: order.totalCents };
}

/** The notices of a payout's events: the member's first (why, and what to do), then the admins'. */
export type PayoutNotice =
  | { kind: 'batch-on-its-way'; batch: MemberBatch }
  | { kind: 'on-its-way'; commissionId: string }
  | {
      kind: 'failed';
      event: Extract<MoneyEvent, { kind: 'payout.failed' }>;
      /** A batch's payout: the batch as it stands after the failure. */
      batch?: MemberBatch;
      /** This delivery moved the ledger (the payout was ours and is now failed). */
      moved: boolean;
    };

export interface PayoutEventDeps {
  money: MoneyDeps;
  batches: PayoutBatchStore;
  /** Gives a failed instant payout's member-paid fee back (batch-events.ts). */
  gateway?: Pick<PaymentGateway, 'createTransfer'>;
  now: () => number;
  tell: (notice: PayoutNotice) => Promise<void>;
}

/**
 * `transfer.created`, `payout.paid`, `payout.failed` on the Connect endpoint: a per-commission
 * payout moves its commission (money-movement.ts); a batch's payout (batches.ts) names its batch
 * instead, and its failure frees the batch's commissions. Then the member's "on its way" (once per
 * payout), or for a failure the member's and the admins' mails. Answers whether the ledger moved.
 */
export async function onPayoutEvent(deps: PayoutEventDeps, event: MoneyEvent): Promise<boolean> {
  const batchEvents = { batches: deps.batches, now: deps.now };
  if (event.kind === 'payout.paid' && event.metadata.batchId) {
    // A batch's payout: its record completed if the run died before it, then the member's notice.
    const batch = await onBatchPayoutPaid(batchEvents, event);
    if (batch) await deps.tell({ kind: 'batch-on-its-way', batch });
    return batch !== undefined;
  }
  const moved =
    event.kind === 'payout.failed' && event.metadata.batchId
      ? await onBatchPayoutFailed({ ...batchEvents, gateway: deps.gateway }, event)
      : await onMoneyEvent(deps.money, event);
  if (event.kind === 'payout.failed') {
    const { batchId, memberId } = event.metadata;
    const batch = batchId && memberId ? await deps.batches.get(batchId, memberId) : undefined;
    await deps.tell({ kind: 'failed', event, moved, ...(batch ? { batch } : {}) });
  } else if (event.kind === 'payout.paid' && event.metadata.commissionId) {
    await deps.tell({ kind: 'on-its-way', commissionId: event.metadata.commissionId });
  }
  return moved;
}
