import type { Commission, Order } from '@portal/shared/api/sales';
import { disputeWords } from '@portal/shared/domain/disputes';
import { formatMoney } from '@portal/shared/domain/format';
import { commissionShareOfRefund } from '@portal/shared/domain/money';
import {
  FULL_REFUND_EXIT,
  isLiveCommissionStatus,
  type CommissionStatus,
  type LiveCommissionStatus,
  type OrderStatus,
} from '@portal/shared/domain/sales-status';
import { DomainError, conflict } from '../errors';
import {
  MoneyRefusal,
  isDisputeOpen,
  type DisputeData,
  type PaymentGateway,
  type RefundUpdate,
} from '../payments/payment-gateway';
import { toOrder } from '../orders/present';
import { toCommission } from './present';
import type { LedgerCommission, RefundApplication, RefundReason, RefundStore, RefundableOrder } from './refund-store';

/**
 * Refunds and disputes, and the commission that follows them. An admin's refund is reserved on the
 * order first (a conditional write), then made at Stripe with a key from that reservation
 * (`portal:refund:<orderId>:<seq>`), then applied; a refund made in Stripe's dashboard arrives as
 * `charge.refunded` and is applied the same way. Each refund is applied once, by its Stripe id
 * (the order keeps the ids it applied), whoever gets there first.
 *
 * The commission follows in proportion, to the cent: after refunds of R cents of an order of T
 * cents, a commission of C cents keeps C − round(C × R / T) (rounded half up, as 'You Make' is),
 * computed on the running total so that partial refunds add up to exactly C when the order is
 * refunded in full. What it loses goes where its money is: not yet sent → the commission is reduced
 * (cancelled at 0); in the member's Stripe balance → a transfer reversal of that amount (reversed at
 * 0); paid out → a clawback entry and what the member owes grows (clawed back at 0).
 */

export interface RefundDeps {
  store: RefundStore;
  gateway: PaymentGateway;
  now: () => number;
  /**
   * A refund (or lost dispute) is on the order: the customer's mail about it, once per refund
   * (notifications/mails.ts sendRefunded). Called again when the refund is found applied already,
   * so a retry sends a mail an earlier attempt did not.
   */
  refunded?: (orderId: string, refundId: string) => Promise<void>;
}

export const refundKey = (orderId: string, seq: number): string => `portal:refund:${orderId}:${seq}`;
export const reversalKey = (commissionId: string, refundId: string): string =>
  `portal:reversal:${commissionId}:${refundId}`;

/** round(C × R / T) half up, in integers: the commission's share of R refunded cents of T (shared with the apps). */
export const commissionShare = commissionShareOfRefund;

const REASON_WORDS: Record<string, string> = {
  requested_by_customer: 'requested by the customer',
  duplicate: 'a duplicate payment',
  fraudulent: 'a fraudulent payment',
  dashboard: "refunded in Stripe's dashboard",
};

const EXIT_WORDS: Partial<Record<CommissionStatus, string>> = {
  cancelled: 'cancelled',
  reversed: "reversed (taken back from the member's Stripe balance)",
  clawed_back: "clawed back (taken from the member's next payouts)",
};

export const NOT_A_CARD_ORDER = 'This order was entered by hand: it has no card payment to refund.';
export const DISPUTE_OPEN =
  "This payment is disputed: the card holder's bank decides whether the customer gets the money back; refunds are not possible while the dispute is open. Answer the dispute in Stripe's dashboard.";
export const DISPUTE_LOST =
  "This payment was disputed and the dispute was lost: the card holder's bank gave the customer the disputed amount back; refunds are not possible after a lost dispute.";
export const REFUNDED_IN_FULL = 'This order is refunded in full already.';
export const tooMuch = (amountCents: number, leftCents: number, totalCents: number) =>
  `A refund of ${formatMoney(amountCents)} is more than what is left to refund of this order: ${formatMoney(leftCents)} of the ${formatMoney(totalCents)} paid.`;

const MAX_ROUNDS = 5;

/** The order and its commission as the answers present them. */
async function answer(deps: RefundDeps, orderId: string): Promise<{ order: Order; commission: Commission | null }> {
  const order = await deps.store.getOrder(orderId);
  if (!order) throw new DomainError('not-found', 'There is no order with this id.');
  const commission = order.commissionId ? await deps.store.getCommission(order.commissionId) : undefined;
  return { order: toOrder(order), commission: commission ? toCommission(commission, undefined, deps.now()) : null };
}

/**
 * `/api/refundOrder`: refunds `amountCents` of a card order (all that is left when absent). A
 * reservation pending from an earlier call (a crash, a lost answer, a concurrent click) is
 * completed first with its own key: concurrent calls refund once.
 */
export async function refundOrder(
  deps: RefundDeps,
  body: { id: string; amountCents?: number; reason: RefundReason; note?: string },
): Promise<{ order: Order; commission: Commission | null }> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const order = await deps.store.getOrder(body.id);
    if (!order) {
      throw new DomainError('not-found', 'There is no order with this id.', {
        fields: { id: 'There is no order with this id.' },
      });
    }
    if (!order.paymentIntentId) throw conflict(NOT_A_CARD_ORDER);
    const pending = order.refundPending;
    if (pending) {
      await completeReserved(deps, order, pending);
      // The same refund asked again (a retry, a second click): its answer. Another one: say what happened.
      if (body.amountCents === undefined || body.amountCents === pending.amountCents) return answer(deps, order.id);
      const after = await deps.store.getOrder(order.id);
      throw conflict(
        `Another refund of this order (${formatMoney(pending.amountCents)}) was under way and is done now: ${formatMoney(after?.refundedCents ?? 0)} refunded in all. Look at the order again before refunding more.`,
      );
    }
    // A chargeback's money is the bank's to give back: a refund beside it would pay the customer twice.
    if (order.dispute?.status === 'open') throw conflict(DISPUTE_OPEN);
    if (order.dispute?.status === 'lost') throw conflict(DISPUTE_LOST);
    const refunded = order.refundedCents ?? 0;
    const left = order.totalCents - refunded;
    if (left <= 0) throw conflict(REFUNDED_IN_FULL);
    const amount = body.amountCents ?? left;
    if (amount > left) throw conflict(tooMuch(amount, left, order.totalCents));
    const reservation = {
      seq: order.refundSeq ?? 0,
      amountCents: amount,
      reason: body.reason,
      ...(body.note ? { note: body.note } : {}),
      at: new Date(deps.now()).toISOString(),
    };
    if (await deps.store.reserveRefund(order, reservation)) {
      await completeReserved(deps, { ...order, refundPending: reservation }, reservation);
      return answer(deps, order.id);
    }
    // Someone reserved or applied a refund meanwhile: read again.
  }
  throw conflict('This order changed several times at once; reload it and try again.');
}

/** Makes the reserved refund at Stripe (its own key) and applies it; a definite refusal frees the reservation. */
async function completeReserved(
  deps: RefundDeps,
  order: RefundableOrder,
  pending: NonNullable<RefundableOrder['refundPending']>,
): Promise<void> {
  let refund;
  try {
    refund = await deps.gateway.createRefund({
      paymentIntentId: order.paymentIntentId!,
      amountCents: pending.amountCents,
      reason: pending.reason,
      idempotencyKey: refundKey(order.id, pending.seq),
      metadata: {
        orderId: order.id,
        orderID: order.orderID,
        portalRefund: String(pending.seq),
        portalReason: pending.reason,
      },
    });
  } catch (error) {
    // A definite refusal frees the reservation (the next try is a new key); a fault or a key in flight keeps it.
    if (error instanceof MoneyRefusal) await deps.store.releaseRefund(order.id, pending.seq);
    throw error;
  }
  await applyRefund(deps, order.id, {
    id: refund.id,
    amountCents: refund.amountCents,
    words: REASON_WORDS[pending.reason] ?? pending.reason,
    kind: 'refund',
    clearsPendingSeq: pending.seq,
    pending: refund.status === 'pending',
  });
}

interface AppliedRefund {
  id: string;
  amountCents: number;
  words: string;
  /** A refund (an admin's or the dashboard's) or a dispute lost. */
  kind: 'refund' | 'dispute';
  clearsPendingSeq?: number;
  /**
   * A lost dispute ends its own hold (the one it put on, `disputeId`): the commission goes back to
   * where it was, less its share. A hold for an admin's review (`heldFor`) stays until they decide.
   */
  endsHoldOf?: string;
  /** Stripe holds it pending (the platform's balance does not cover it yet): the order says so until it goes out. */
  pending?: boolean;
}

/** Where a commission's money is: its status, or the status a review holds it from. */
function baseOf(commission: LedgerCommission): LiveCommissionStatus | null {
  if (isLiveCommissionStatus(commission.status)) return commission.status;
  if (commission.status === 'review' && commission.heldFrom && isLiveCommissionStatus(commission.heldFrom)) {
    return commission.heldFrom;
  }
  return null;
}

/**
 * Applies one refund (by its Stripe id) to the order and its commission, once. Conditional on the
 * order's refunded total and the commission's status and amount as read; a lost race reads again.
 */
export async function applyRefund(deps: RefundDeps, orderId: string, refund: AppliedRefund): Promise<void> {
  await applyRefundOnce(deps, orderId, refund);
  await deps.refunded?.(orderId, refund.id);
}

async function applyRefundOnce(deps: RefundDeps, orderId: string, refund: AppliedRefund): Promise<void> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const order = await deps.store.getOrder(orderId);
    if (!order) throw conflict('The refunded order is not recorded yet.');
    if (order.refundIds?.has(refund.id)) {
      if (refund.clearsPendingSeq !== undefined && order.refundPending?.seq === refund.clearsPendingSeq) {
        await deps.store.clearRefundPending(order.id, refund.clearsPendingSeq);
      }
      return;
    }
    const newRefunded = Math.min(order.totalCents, (order.refundedCents ?? 0) + refund.amountCents);
    const record = order.commissionId ? await deps.store.getCommission(order.commissionId) : undefined;
    const now = new Date(deps.now()).toISOString();
    const clears =
      refund.clearsPendingSeq !== undefined && order.refundPending?.seq === refund.clearsPendingSeq
        ? refund.clearsPendingSeq
        : undefined;
    const base = record ? baseOf(record) : null;
    if (!record || !base) {
      // No commission, or one with nothing left to take (cancelled, reversed, clawed back).
      if (
        await deps.store.apply({
          order,
          refundId: refund.id,
          newRefundedCents: newRefunded,
          kind: refund.kind,
          clearsPendingSeq: clears,
          ...(refund.pending ? { pendingCents: refund.amountCents } : {}),
          now,
        })
      )
        return;
      continue;
    }
    const original = record.originalCents ?? record.amountCents;
    const keeps = original - commissionShare(original, newRefunded, order.totalCents);
    const taken = Math.max(0, record.amountCents - keeps);
    const full = record.amountCents - taken === 0;
    const status: CommissionStatus = full
      ? FULL_REFUND_EXIT[base]
      : record.status === 'review' && !record.heldFor && refund.endsHoldOf && record.disputeId === refund.endsHoldOf
        ? base
        : record.status;
    const exitWords = EXIT_WORDS[status];
    // A refund Stripe holds pending still takes the commission's share: the money is going back.
    const held = refund.pending
      ? " The refund is pending at Stripe until the platform's balance covers it; if it fails, the share comes back."
      : '';
    const reason = full
      ? `Order ${order.orderID} refunded in full (${refund.words}): the commission is ${exitWords ?? status}.${held}`
      : `Order ${order.orderID} partly refunded (${formatMoney(newRefunded)} of ${formatMoney(order.totalCents)}, ${refund.words}): the commission was reduced by ${formatMoney(original - keeps)}.${held}`;

    if (taken > 0 && record.batchId) {
      // A payout batch (commissions/batches.ts) holds it: the batch decides where its money is, then
      // frees it; the refund's share is taken from wherever that leaves it.
      throw conflict(
        'A payout batch is moving this commission; the refund is applied to it once that ends. Try again in a minute.',
      );
    }
    if (base === 'in_stripe' && taken > 0) {
      // A transfer reversal of its share: reserved on the commission first (no payout may start), then Stripe, then our write.
      const held = record.reversalPending;
      if (held && held.refundId !== refund.id) {
        throw conflict('Another refund of this order is being applied to its commission; try again in a minute.');
      }
      if (record.payoutPendingAt) {
        throw conflict(
          "A payout of this commission is under way; the refund's share is taken when it ends. Try again in a minute.",
        );
      }
      if (!held && !(await deps.store.reserveReversal(record, refund.id, taken))) continue;
      const transferId = record.transferId;
      if (!transferId) throw new Error(`Commission ${record.id} is in Stripe without a transfer id`);
      await deps.gateway.createTransferReversal({
        transferId,
        amountCents: held?.amountCents ?? taken,
        idempotencyKey: reversalKey(record.id, refund.id),
        metadata: { commissionId: record.id, orderId: order.id, refundId: refund.id },
      });
    } else if ((base === 'processing' || base === 'order_open') && taken > 0 && record.transferPendingAt) {
      // A transfer of the full amount is under way: its outcome decides where the share is taken from.
      throw conflict(
        'A transfer of this commission to Stripe is under way; the refund is applied to it once that ends. Try again in a minute.',
      );
    }

    const applied = await deps.store.apply({
      order,
      refundId: refund.id,
      newRefundedCents: newRefunded,
      kind: refund.kind,
      clearsPendingSeq: clears,
      ...(refund.pending ? { pendingCents: refund.amountCents } : {}),
      commission: {
        record,
        base,
        takenCents: taken,
        status,
        reason,
        ...(base === 'paid' && taken > 0 ? { clawback: { id: `${record.id}:${refund.id}`, time: now } } : {}),
      },
      now,
    });
    if (applied) return;
  }
  throw conflict('The order changed several times while its refund was applied; it is applied on the next try.');
}

/**
 * `charge.refunded`: every refund of the payment at Stripe not applied yet is applied (a refund we
 * made ourselves is found by its id, so it is never counted twice). A payment whose order is not
 * recorded yet answers non-2xx, so Stripe delivers the event again.
 */
export async function onChargeRefunded(deps: RefundDeps, paymentIntentId: string | null): Promise<void> {
  if (!paymentIntentId) return;
  const order = await deps.store.orderOfPayment(paymentIntentId);
  if (!order) throw conflict('The refunded payment has no order recorded yet.');
  const refunds = await deps.gateway.listRefunds(paymentIntentId);
  // Oldest first, as they were made.
  for (const refund of [...refunds].reverse()) {
    if (refund.status !== 'succeeded' && refund.status !== 'pending') continue;
    if (order.refundIds?.has(refund.id)) continue;
    const ours = refund.metadata.portalReason;
    const seq = refund.metadata.portalRefund;
    await applyRefund(deps, order.id, {
      id: refund.id,
      amountCents: refund.amountCents,
      words: REASON_WORDS[ours ?? (refund.reason ? refund.reason : 'dashboard')] ?? refund.reason ?? 'refunded',
      pending: refund.status === 'pending',
      kind: 'refund',
      ...(seq !== undefined && order.refundPending?.seq === Number(seq) ? { clearsPendingSeq: Number(seq) } : {}),
    });
  }
}

/** What a failed refund meant for the order and its commission, for the admins' mail. */
export interface FailedRefund {
  orderId: string;
  orderID: string;
  amountCents: number;
  /** The order's refunded total after it. */
  refundedCents: number;
  totalCents: number;
  /** What happened to the commission, in words. */
  commission: string;
  /** The work list the order is back in (it had left it when the refund made it refunded in full), by its title. */
  backInList: string | null;
}

/** The admin's work list an order of each status is in, by its title (the Orders screen's); none once fulfilled. */
const WORK_LIST_TITLES: Record<OrderStatus, string | null> = {
  not_ordered: 'Not ordered yet',
  ordered: 'Not shipped yet',
  shipped: 'Not fulfilled yet',
  fulfilled: null,
};

const FAILURE_WORDS: Record<string, string> = {
  insufficient_funds: "the platform's Stripe balance did not cover it for 45 days",
  expired_or_canceled_card: "the customer's card was expired or cancelled",
  lost_or_stolen_card: "the customer's card was reported lost or stolen",
  charge_for_pending_refund_disputed: 'the customer disputed the payment while the refund was pending',
  declined: "the customer's bank declined it",
  merchant_request: 'it was cancelled',
};
export const refundFailureWords = (reason: string | null): string =>
  (reason && FAILURE_WORDS[reason]) ?? 'Stripe gave no reason';

/**
 * `refund.updated`, `charge.refund.updated`, `refund.failed` (one refund, up to three events): a
 * pending refund that went out loses its pending mark; a refund that failed after it was applied
 * is taken off the order (once, `failedRefundIds`) and its commission gets its share back where the
 * money did not leave the platform: not sent (the amount grows again) or paid out (the clawback
 * shrinks). A commission whose share was reversed from the member's Stripe balance, or that was
 * cancelled, reversed or clawed back in full, is left as it is and the admins' mail says so.
 * Answers the failure applied now (for the mail), else undefined.
 */
export async function onRefundUpdated(deps: RefundDeps, update: RefundUpdate): Promise<FailedRefund | undefined> {
  if (!update.paymentIntentId) return undefined;
  const order = await deps.store.orderOfPayment(update.paymentIntentId);
  if (!order) throw conflict('The refunded payment has no order recorded yet.');
  if (update.status === 'succeeded') {
    if (order.pendingRefundIds?.has(update.refundId)) {
      await deps.store.settlePendingRefund(order.id, update.refundId, update.amountCents);
    }
    return undefined;
  }
  if (update.status !== 'failed') return undefined;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const current = await deps.store.getOrder(order.id);
    if (!current?.refundIds?.has(update.refundId) || current.failedRefundIds?.has(update.refundId)) return undefined;
    const newRefunded = Math.max(0, (current.refundedCents ?? 0) - update.amountCents);
    const wasPendingCents = current.pendingRefundIds?.has(update.refundId) ? update.amountCents : 0;
    const record = current.commissionId ? await deps.store.getCommission(current.commissionId) : undefined;
    const now = new Date(deps.now()).toISOString();
    const failure = refundFailureWords(update.failureReason);
    let commission: RefundApplication['commission'];
    let words = 'No commission changes: no member’s share link sold this order.';
    if (record) {
      const original = record.originalCents ?? record.amountCents;
      const keeps = original - commissionShare(original, newRefunded, current.totalCents);
      const giveBack = Math.max(0, keeps - record.amountCents);
      const base = isLiveCommissionStatus(record.status) ? record.status : null;
      if (giveBack === 0) {
        words = 'The commission kept its amount: the refund had taken nothing from it.';
      } else if (record.batchId || record.reversalPending) {
        throw conflict(
          'A payout batch or a reversal is moving this commission; the failed refund is applied once that ends.',
        );
      } else if (base === 'processing' || base === 'order_open' || base === 'paid') {
        commission = {
          record,
          base,
          takenCents: -giveBack,
          status: record.status,
          reason: `A refund of ${formatMoney(update.amountCents)} on order ${current.orderID} failed (${failure}): the commission's share of ${formatMoney(giveBack)} is given back.`,
          ...(base === 'paid' ? { clawback: { id: `${record.id}:${update.refundId}:failed`, time: now } } : {}),
        };
        words =
          base === 'paid'
            ? `The member's commission share of ${formatMoney(giveBack)} is given back: what they owe went down by it.`
            : `The member's commission share of ${formatMoney(giveBack)} is given back: it is to be sent with the commission.`;
      } else if (record.status === 'cancelled' && !record.transferId && !record.heldFor) {
        // The refund cancelled it before anything was sent: its money never left the platform, so
        // it is back where its order says (decision 0340), to be sent as before.
        const back = current.status === 'fulfilled' ? 'processing' : 'order_open';
        commission = {
          record,
          base: back,
          takenCents: -giveBack,
          status: back,
          reason: `A refund of ${formatMoney(update.amountCents)} on order ${current.orderID} failed (${failure}): the commission it had cancelled is back, ${formatMoney(giveBack)}.`,
        };
        words = `The member's commission of ${formatMoney(giveBack)}, which the refund had cancelled, is back: it is to be sent with the order as before.`;
      } else {
        words = `The commission (${record.status.replace('_', ' ')}) lost ${formatMoney(giveBack)} to the refund and keeps it lost: its money left the platform or the commission ended. To give the member their share, send it by hand in Stripe.`;
      }
    }
    const applied = await deps.store.apply({
      order: current,
      refundId: update.refundId,
      newRefundedCents: newRefunded,
      kind: 'refund',
      failed: { wasPendingCents },
      ...(commission ? { commission } : {}),
      now,
    });
    if (applied) {
      // Refunded in full, it had left its work list; now something is to send again: it is back (decision 0340).
      const back = (current.refundedCents ?? 0) >= current.totalCents && newRefunded < current.totalCents;
      return {
        orderId: current.id,
        orderID: current.orderID,
        amountCents: update.amountCents,
        refundedCents: newRefunded,
        totalCents: current.totalCents,
        commission: words,
        backInList: back ? WORK_LIST_TITLES[current.status] : null,
      };
    }
  }
  throw conflict('The order changed several times while its failed refund was applied; it is applied on the next try.');
}

/**
 * A dispute's event, acted on by the dispute's state at Stripe (payments/payouts.ts reads it
 * before this runs), never by the event's type: Stripe does not order its events, so a `created`
 * arriving after `closed` must end where `closed` did. Open: the commission is held for the
 * dispute (from a live status; one held already for an admin's review stays as it is). Won, or an
 * inquiry closed: the dispute's own hold ends, back where it was. Lost: the disputed amount is
 * applied as a refund of the order (once, by the dispute's id), the commission keeping what the
 * refund-share rule leaves it, and the dispute's own hold ends. The order keeps the dispute's
 * state, so that a refund beside it is refused in words.
 */
export async function onDispute(deps: RefundDeps, dispute: DisputeData): Promise<void> {
  if (!dispute.paymentIntentId) return;
  const order = await deps.store.orderOfPayment(dispute.paymentIntentId);
  if (!order) throw conflict('The disputed payment has no order recorded yet.');
  let current = dispute;
  if (isDisputeOpen(current.status)) {
    await recordDispute(deps, order, current);
    await holdForDispute(deps, order, current);
    // Closed meanwhile (its `closed` event handled before the hold was written, and so finding
    // nothing to release): read again, and end it here.
    const again = await deps.gateway.retrieveDispute(current.disputeId);
    if (!again || isDisputeOpen(again.status)) return;
    current = again;
  }
  await recordDispute(deps, order, current);
  if (current.status === 'lost') {
    await applyRefund(deps, order.id, {
      id: current.disputeId,
      amountCents: current.amountCents,
      words: `a dispute lost: ${disputeWords(current.reason)}`,
      kind: 'dispute',
      endsHoldOf: current.disputeId,
    });
    return;
  }
  // Won (or an inquiry closed without a chargeback): the dispute's own hold ends, back where it was.
  if (!order.commissionId) return;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const commission = await deps.store.getCommission(order.commissionId);
    if (!commission || commission.status !== 'review' || commission.disputeId !== current.disputeId) return;
    const reason = `Dispute on order ${order.orderID} won: the commission is released.`;
    if (await deps.store.release(commission, current.disputeId, reason, new Date(deps.now()).toISOString())) return;
  }
  throw conflict('The commission changed several times while the dispute was closed.');
}

/**
 * The order keeps its dispute as Stripe has it now, in the words its card, lists and the customer's
 * page use (open, won or lost; an inquiry closed without a chargeback counts as won): a refund
 * beside an open or lost one is refused.
 */
function recordDispute(deps: RefundDeps, order: RefundableOrder, dispute: DisputeData): Promise<boolean> {
  const now = new Date(deps.now()).toISOString();
  const open = isDisputeOpen(dispute.status);
  return deps.store.recordDispute(order.id, {
    id: dispute.disputeId,
    status: open ? 'open' : dispute.status === 'lost' ? 'lost' : 'won',
    reason: dispute.reason,
    amountCents: dispute.amountCents,
    openedAt: order.dispute?.id === dispute.disputeId ? order.dispute.openedAt : now,
    ...(open ? {} : { closedAt: now }),
  });
}

/** An open dispute holds a live commission for review, once (a commission held already stays as it is). */
async function holdForDispute(deps: RefundDeps, order: RefundableOrder, dispute: DisputeData): Promise<void> {
  if (!order.commissionId) return;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const commission = await deps.store.getCommission(order.commissionId);
    if (!commission || !isLiveCommissionStatus(commission.status)) return;
    const reason = `Dispute opened on order ${order.orderID}: ${disputeWords(dispute.reason)}.`;
    const now = new Date(deps.now()).toISOString();
    if (await deps.store.holdForReview(commission, reason, dispute.disputeId, now)) return;
  }
  throw conflict('The commission changed several times while the dispute was recorded.');
}

/** The card an order was paid with, for the refund's confirmation; a 404 in words for no such order. */
export async function orderPaymentCard(deps: RefundDeps, orderId: string) {
  const order = await deps.store.getOrder(orderId);
  if (!order) throw new DomainError('not-found', 'There is no order with this id.');
  const [card, record] = await Promise.all([
    order.chargeId ? deps.gateway.chargeCard(order.chargeId) : undefined,
    order.commissionId ? deps.store.getCommission(order.commissionId) : undefined,
  ]);
  const base = record ? baseOf(record) : null;
  const commission = record
    ? {
        where:
          base === null ? ('none' as const) : base === 'in_stripe' || base === 'paid' ? base : ('not_sent' as const),
        amount: record.amountCents / 100,
        originalAmount: (record.originalCents ?? record.amountCents) / 100,
      }
    : null;
  return { orderId, card: card ?? null, commission };
}
