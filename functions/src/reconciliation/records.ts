import type { CommissionStatus } from '@portal/shared/domain/sales-status';

/**
 * What reconciliation reads on each side (issue 27, "Reconciliation"): Stripe's money objects as
 * the comparison needs them, and our ledger's records. Amounts are integer cents; Stripe's times
 * are its `created`, Unix seconds.
 */

/** A period as Stripe's `created` filter takes it: both ends included, Unix seconds. */
export interface StripePeriod {
  gte: number;
  lte: number;
}

export interface StripeCharge {
  id: string;
  amountCents: number;
  refundedCents: number;
  paymentIntentId: string | null;
  /** `succeeded`, `pending` or `failed`: only a succeeded charge moved money. */
  status: string;
  created: number;
  /** Its disputes lost (the bank took their amount back; Stripe does not count it as refunded). */
  lostDisputes?: { id: string; amountCents: number }[];
}

export interface StripeRefund {
  id: string;
  amountCents: number;
  /** `pending`, `requires_action`, `succeeded`, `failed` or `canceled`. */
  status: string;
  chargeId: string | null;
  paymentIntentId: string | null;
  created: number;
  metadata: Record<string, string>;
}

export interface StripeReversal {
  id: string;
  transferId: string;
  amountCents: number;
  created: number;
  metadata: Record<string, string>;
}

export interface StripeTransfer {
  id: string;
  amountCents: number;
  reversedCents: number;
  /** The connected account (`acct_…`). */
  destination: string | null;
  created: number;
  metadata: Record<string, string>;
  /** Every reversal of the transfer, whenever it was made. */
  reversals: StripeReversal[];
}

export interface StripePayout {
  id: string;
  /** The connected account it pays out of (the `Stripe-Account` it was read with). */
  accountId: string;
  amountCents: number;
  /** `paid`, `pending`, `in_transit`, `canceled` or `failed`. */
  status: string;
  failure: string | null;
  created: number;
  metadata: Record<string, string>;
}

/** A connected account of the platform and the member it was made for (its metadata's `userId`). */
export interface StripeAccountRef {
  id: string;
  userId: string | null;
}

/** Stripe's side: lists bounded by the period (every page), and single objects by id (null: Stripe has no such object). */
export interface StripeRecords {
  charges(period: StripePeriod): Promise<StripeCharge[]>;
  refunds(period: StripePeriod): Promise<StripeRefund[]>;
  transfers(period: StripePeriod): Promise<StripeTransfer[]>;
  accounts(): Promise<StripeAccountRef[]>;
  payouts(accountId: string, period: StripePeriod): Promise<StripePayout[]>;
  charge(id: string): Promise<StripeCharge | null>;
  /** The payment intent's charge, when it has one. */
  chargeOfPayment(paymentIntentId: string): Promise<StripeCharge | null>;
  refund(id: string): Promise<StripeRefund | null>;
  transfer(id: string): Promise<StripeTransfer | null>;
  payout(accountId: string, id: string): Promise<StripePayout | null>;
}

export interface LedgerOrder {
  id: string;
  /** The order number people read, 'RP-…'. */
  orderID: string;
  totalCents: number;
  paymentIntentId: string | null;
  chargeId: string | null;
  refundedCents: number;
  /** The Stripe refunds applied (and lost disputes, `dp_…`/`du_…`, applied as refunds). */
  refundIds: string[];
  commissionId: string | null;
  memberId: string | null;
  createdAt: string;
}

export interface LedgerCommission {
  id: string;
  orderId: string;
  orderID: string;
  memberId: string;
  status: CommissionStatus;
  amountCents: number;
  transferId: string | null;
  payoutId: string | null;
  /** What a payout batch netted of it against the member's clawback debt. */
  nettedCents: number;
  batchId: string | null;
  /** The batch that settled it wholly against a debt (no money moved). */
  settledBatchId: string | null;
}

export interface LedgerBatch {
  batchId: string;
  memberId: string;
  state: string;
  /** Its transfers (one per charge, decision 0280; a batch claimed before it: one), each as recorded. */
  transfers: { id: string; amountCents: number }[];
  /** The transfer of a batch whose instant payout Stripe refused: the member's fee given back (decision 0270). */
  topUpTransferId?: string | null;
  topUpCents?: number;
  /** The transfer giving back the member's instant fee of a payout that failed (decision 0340). */
  feeBackTransferId?: string | null;
  feeBackCents?: number;
  payoutId: string | null;
  payoutCents: number;
}

export interface LedgerMember {
  id: string;
  /** The member's name as the admin knows it (first and last name, else the display name or e-mail). */
  name: string;
  stripeID: string | null;
}

/** Our side, read by keys: the orders of a period from the orders list, everything else by its own key. */
export interface LedgerRecords {
  /** Orders created from `fromIso` (included) to `toIso` (excluded), from the list of every order. */
  ordersCreated(fromIso: string, toIso: string): Promise<LedgerOrder[]>;
  orderOfPayment(paymentIntentId: string): Promise<LedgerOrder | undefined>;
  order(id: string): Promise<LedgerOrder | undefined>;
  commission(id: string): Promise<LedgerCommission | undefined>;
  batch(batchId: string, memberId: string): Promise<LedgerBatch | undefined>;
  member(id: string): Promise<LedgerMember | undefined>;
  /** The member's clawbacks by commission: what a refund after payout left with the member (owed, not reversed). */
  clawedBack(memberId: string): Promise<Map<string, number>>;
}
