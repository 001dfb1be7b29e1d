import type { CommissionStatus, LiveCommissionStatus } from '@portal/shared/domain/sales-status';
import type { OrderDispute, OrderRecord, OrderRefund } from '../orders/sales-store';
import type { CommissionRecord } from './money-store';

/**
 * The order and commission items as refunds and disputes read and move them (one table; keys in
 * shared/src/db/table.ts), with the counters, the member's earnings, what the member owes
 * (`USER#<id>` / `OWED`) and their clawback entries moved in the same transaction.
 */

export type RefundReason = 'requested_by_customer' | 'duplicate' | 'fraudulent';

/** An admin's refund reserved on the order before Stripe is asked: its key is `portal:refund:<orderId>:<seq>`. */
export interface RefundPending {
  seq: number;
  amountCents: number;
  reason: RefundReason;
  note?: string;
  at: string;
}

export interface RefundableOrder extends OrderRecord {
  /** How many refunds an admin reserved so far: the next one's key number. */
  refundSeq?: number;
  refundPending?: RefundPending;
  /** Applied refunds Stripe holds pending (the platform's balance does not cover them yet), and their sum. */
  pendingRefundIds?: Set<string>;
  /** Applied refunds that failed at Stripe afterwards: taken off `refundedCents` once each. */
  failedRefundIds?: Set<string>;
}

export interface LedgerCommission extends CommissionRecord {
  /** A transfer reversal reserved for a refund before Stripe is asked (key `portal:reversal:<id>:<refundId>`). */
  reversalPending?: { refundId: string; amountCents: number };
  /** Set while a payout of it is being made (money-store reservePayout). */
  payoutPendingAt?: string;
  /** The dispute that holds it for review. */
  disputeId?: string;
}

/** One refund (or lost dispute) applied to an order and its commission, once. */
export interface RefundApplication {
  /** The order as read: the write is conditional on its refunded total and on the refund being new. */
  order: RefundableOrder;
  refundId: string;
  newRefundedCents: number;
  /** The refund as the order keeps it (what, when, a refund or a lost dispute). */
  kind: OrderRefund['kind'];
  /** The admin's reservation this refund completes, removed with it. */
  clearsPendingSeq?: number;
  /** Stripe holds the refund pending: the order lists it as pending until `refund.updated` says succeeded. */
  pendingCents?: number;
  /**
   * The refund failed at Stripe after it was applied: `refundId` is in `refundIds` and not yet in
   * `failedRefundIds`; the order's total goes down (`newRefundedCents`), the pending mark goes
   * (`wasPendingCents`), a commission's `takenCents` is negative (its share given back), and the
   * order keeps a record of the failure (`failedRefunds`, with `reason` in words) for the admin's card.
   */
  failed?: { wasPendingCents: number; amountCents: number; reason: string };
  commission?: {
    /** As read: the write is conditional on its status and amount. */
    record: LedgerCommission;
    /** Where its money is (its status, or the status it was held from). */
    base: LiveCommissionStatus;
    takenCents: number;
    status: CommissionStatus;
    reason: string;
    /** A paid commission's share is taken back: what the member owes grows by `takenCents`. */
    clawback?: { id: string; time: string };
  };
  now: string;
}

export interface Clawback {
  id: string;
  memberId: string;
  amountCents: number;
  reason: string;
  orderId: string;
  orderID: string;
  commissionId: string;
  refundId: string;
  createdAt: string;
}

export interface RefundStore {
  getOrder(id: string): Promise<RefundableOrder | undefined>;
  orderOfPayment(paymentIntentId: string): Promise<RefundableOrder | undefined>;
  getCommission(id: string): Promise<LedgerCommission | undefined>;
  /** The admin's refund, reserved while none is pending and the refunded total is as read; false otherwise. */
  reserveRefund(order: RefundableOrder, pending: RefundPending): Promise<boolean>;
  /** Stripe refused the reserved refund definitely: the reservation goes (the next try is a new key). */
  releaseRefund(orderId: string, seq: number): Promise<boolean>;
  /** A refund already applied (by the webhook) completes the admin's reservation of it. */
  clearRefundPending(orderId: string, seq: number): Promise<boolean>;
  /** Reserves a transfer reversal while the commission is in Stripe at the amount read, with no payout under way. */
  reserveReversal(commission: LedgerCommission, refundId: string, amountCents: number): Promise<boolean>;
  /** A pending refund went out (`refund.updated` succeeded): its pending mark goes; false when it was not pending. */
  settlePendingRefund(orderId: string, refundId: string, amountCents: number): Promise<boolean>;
  /** The refund on the order and its commission, counters, earnings, owed and clawback: one transaction. */
  apply(application: RefundApplication): Promise<boolean>;
  /** A dispute holds the commission for review (from a live status); false when it is not as read. */
  holdForReview(commission: LedgerCommission, reason: string, disputeId: string, now: string): Promise<boolean>;
  /**
   * The order's dispute as Stripe reports it: opened, then won or lost. An opening never replaces
   * the same dispute closed (Stripe does not order its events); false when it would.
   */
  recordDispute(orderId: string, dispute: OrderDispute): Promise<boolean>;
  /** A dispute won: back to the status it was held from. */
  release(commission: LedgerCommission, disputeId: string, reason: string, now: string): Promise<boolean>;
  /** A member's clawbacks, newest first, and what they owe now. */
  clawbacks(memberId: string): Promise<{ items: Clawback[]; owedCents: number }>;
}
