import type { CommissionRule } from '@portal/shared/domain/commission-rules';
import type { Customer } from '@portal/shared/api/customer';
import type { Shipment } from '@portal/shared/api/order-page';
import type { CommissionStatus, OrderStatus } from '@portal/shared/domain/sales-status';
import type { HeldFor } from './abuse';

/**
 * The sales data as the orders capability needs it: the orders, and the commission each sale writes
 * (the commissions' own lists and totals are commissions/commission-store.ts) (one table; the layout is in
 * docs/architecture.md#data-one-dynamodb-table, and its keys in shared/src/db/table.ts). Money is integer cents.
 */

export type Flag = 0 | 1;

/** The buyer as stored: what the checkout form, the admin or Stripe gave (fields may be empty when none did). */
export type StoredCustomer = Customer;

export interface OrderRecord {
  id: string;
  /** The order number people read: 'RP-' + 8 Crockford base32 characters. */
  orderID: string;
  qty: number;
  product_id: string;
  product_name: string;
  brand: string;
  product_image: string | null;
  spu_no: string;
  product_url: string;
  unitCents: number;
  totalCents: number;
  customer: StoredCustomer;
  memberId: string | null;
  memberEmail: string | null;
  source: 'checkout' | 'admin';
  paymentIntentId: string | null;
  /** The share page's counted visit that led to the sale (its payment's metadata, issue 39). */
  visitId?: string;
  /** The payment's charge (`latest_charge`), when paid by card: the commission's transfer is funded from it. */
  chargeId?: string;
  commissionId: string | null;
  /** The one stored state; the spec's flags are derived from it (shared/src/domain/sales-status.ts). */
  status: OrderStatus;
  createdAt: string;
  /** When each mark was made (absent on orders marked before the dates were kept). */
  orderedAt?: string;
  shippedAt?: string;
  fulfilledAt?: string;
  /** The carrier and tracking number the admin gave when marking it shipped, if any. */
  shipment?: Shipment;
  /** Cents refunded so far (absent: none). */
  refundedCents?: number;
  /** The Stripe refunds (and lost disputes) already applied: each is applied once. */
  refundIds?: Set<string>;
  /** Of the refunded cents, what Stripe still holds pending (the platform's balance does not cover it yet). */
  pendingRefundCents?: number;
  /** Flagged for the admin, in words: paid for a product banned or withdrawn before the payment (orders/abuse.ts). */
  flag?: string;
  /** Each refund (and lost dispute) as applied, oldest first: what went back to the customer, and when. */
  refunds?: OrderRefund[];
  /** Refunds that failed at Stripe after they were applied (taken off `refunds`), oldest first, once each (decision 0340). */
  failedRefunds?: OrderFailedRefund[];
  /** The payment's dispute, if the customer's bank opened one (the latest). */
  dispute?: OrderDispute;
  /** The member's discount code the customer paid with (issue 39); `totalCents` is after its discount. */
  discountCode?: string;
  /** What the code took off the price, in cents. */
  discountCents?: number;
}

/** One refund of an order as the order keeps it (commissions/refunds.ts applies it once, by its Stripe id). */
export interface OrderRefund {
  id: string;
  amountCents: number;
  /** When it was applied (ISO). */
  at: string;
  /** An admin's or Stripe dashboard's refund, or a dispute the platform lost (the bank took the money back). */
  kind: 'refund' | 'dispute';
}

/** A refund that failed at Stripe after it was applied: what the admin's card says of it. */
export interface OrderFailedRefund {
  id: string;
  amountCents: number;
  /** When the portal applied the failure (ISO). */
  at: string;
  /** Why, in words (commissions/refunds.ts refundFailureWords). */
  reason: string;
  /** The refund had made the order refunded in full: the failure brought it back into its work list. */
  backInList: boolean;
}

/** A dispute of the order's payment: open until Stripe closes it, won or lost. */
export interface OrderDispute {
  id: string;
  status: 'open' | 'won' | 'lost';
  /** Stripe's reason code (`fraudulent`, `product_not_received`, …). */
  reason: string;
  amountCents: number;
  openedAt: string;
  closedAt?: string;
}

/** Whether an order was refunded in full (by refunds or a lost dispute): nothing is left to send, it is in no work list. */
export const isRefundedInFull = (order: Pick<OrderRecord, 'refundedCents' | 'totalCents'>): boolean =>
  (order.refundedCents ?? 0) >= order.totalCents && order.totalCents > 0;

export interface CommissionRecord {
  id: string;
  memberId: string;
  memberEmail: string;
  orderId: string;
  orderID: string;
  product_id: string;
  product_name: string;
  amountCents: number;
  /** The one stored state; the spec's flags are derived from it (shared/src/domain/sales-status.ts). */
  status: CommissionStatus;
  transferId: string | null;
  /** The sale's charge, when paid by card (see OrderRecord.chargeId). */
  chargeId?: string;
  payoutId: string | null;
  payoutFailure: string | null;
  /** Stripe's `arrival_date` of its recorded payout (epoch seconds): a standard payout is in transit until then. */
  payoutArrivalDate?: number | null;
  createdAt: string;
  updatedAt: string;
  /** Epoch ms from which a fulfilled commission may be sent (fulfilment + COMMISSION_HOLD_DAYS); absent before the hold existed. */
  availableAt?: number;
  /** The commission before refunds took their share (absent: nothing was refunded, `amountCents` is it). */
  originalCents?: number;
  /** Why it was reduced or left the way to being paid, in words. */
  statusReason?: string | null;
  /** Held for review: the status it came from, to which a won dispute returns it. */
  heldFrom?: CommissionStatus;
  /** Held at its sale for an admin's review (orders/abuse.ts), who may release or cancel it; absent for a dispute's hold. */
  heldFor?: HeldFor;
  /**
   * The commission rule it was made with (issue 39): kept as it was at the sale, so a rule changed
   * later never changes a recorded commission. Absent on commissions recorded before rules (10 %).
   */
  rule?: CommissionRuleUsed;
}

/** A commission's rule as it was at its sale: which rule, for what, and its rate, also in words. */
export interface CommissionRuleUsed {
  id: string;
  scope: CommissionRule['scope'];
  value: string;
  rate: CommissionRule['rate'];
  minCents?: number;
  maxCents?: number;
  /** "12.5 % for brand Lumo". */
  text: string;
}

/** A member's commission totals (USER#<id> / EARNINGS): each sale adds to them. */
export interface Earnings {
  memberId: string;
  memberEmail: string;
  count: number;
  totalCents: number;
  paidCents: number;
  processingCents: number;
}

export interface OrderCounts {
  all: number;
  notOrdered: number;
  notShipped: number;
  notFulfilled: number;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export type OrderListName = 'all' | 'not_ordered' | 'not_shipped' | 'not_fulfilled';

/**
 * A search of all orders: by ONE of order number, product or member, each an index read
 * (docs/decisions/0140), and/or by status. A status alone reads its stage list (fulfilled: all
 * orders, kept when fulfilled); with another search it is applied to that search's page, so a
 * page may hold fewer than `limit` orders while `nextCursor` says more were read.
 */
export interface OrderSearch {
  orderNumber?: string;
  productId?: string;
  memberId?: string;
  status?: OrderStatus;
}

/**
 * What a fulfilment does to its order's commission: on hold until `availableAt` (epoch ms), moved
 * order_open → processing; or, held for review, its review kept and the hold remembered for the
 * release (`heldFrom` processing).
 */
export interface FulfilmentHold {
  availableAt: number;
  underReview: boolean;
}

/** The three marks: the status each moves to, each allowed from one status only (ORDER_TRANSITIONS). */
export type OrderStep = Exclude<OrderStatus, 'not_ordered'>;
/**
 * done; not-found; already (someone marked it first); too-early (its previous step is not marked);
 * refunded (refunded in full, or a dispute lost: nothing is left to send).
 */
export type MarkOutcome =
  | { outcome: 'done'; order: OrderRecord }
  | { outcome: 'not-found' }
  | { outcome: 'already' | 'too-early' | 'refunded'; order: OrderRecord };

export type RecordOutcome =
  | { outcome: 'recorded'; order: OrderRecord; commission: CommissionRecord | null }
  /** The payment claim existed: this payment's order, recorded by whoever reported it first. */
  | { outcome: 'payment-recorded'; order: OrderRecord; commission: CommissionRecord | null };

export interface SalesStore {
  /** The member a share code names, by its SHARE#<code> claim. */
  /** The member a share code names; `names` are what the customer's page says ("Recommended by …"). */
  memberOfShareCode(code: string): Promise<{ id: string; email: string; names?: MemberNames } | undefined>;
  /**
   * Writes a sale in ONE transaction: the order, the payment claim (when `order.paymentIntentId`),
   * the commission, and one shard each of the counters and of the member's earnings (ADD; a
   * conflict tries again on another shard); then the member's top-earners place from the sum.
   */
  recordSale(order: OrderRecord, commission: CommissionRecord | null): Promise<RecordOutcome>;
  /** The order a payment recorded, if any. */
  orderOfPayment(paymentIntentId: string): Promise<OrderRecord | undefined>;
  getOrder(id: string): Promise<OrderRecord | undefined>;
  getCommission(id: string): Promise<CommissionRecord | undefined>;
  /**
   * Conditional on the transition table: ordered from not ordered, shipped from ordered, fulfilled
   * from shipped; moves the stage and counters, and keeps the mark's date (`<step>At`) and, for
   * shipped, the shipment. For fulfilled, `hold` says what becomes of the order's commission as
   * read (orders/manage.ts holdOnFulfilment), written in the same transaction, conditional on the
   * status it was read in.
   */
  markOrder(
    id: string,
    step: OrderStep,
    now: string,
    shipment?: Shipment | null,
    hold?: (commission: CommissionRecord) => FulfilmentHold | undefined,
  ): Promise<MarkOutcome>;
  ordersPage(list: OrderListName, cursor: string | undefined, limit: number): Promise<Page<OrderRecord>>;
  /** A page of the orders a search finds, newest first (OrderSearch). */
  searchOrders(search: OrderSearch, cursor: string | undefined, limit: number): Promise<Page<OrderRecord>>;
  /** The member (a user) with this normalized e-mail, by its e-mail claim. */
  memberByEmail(normalizedEmail: string): Promise<{ id: string; email: string } | undefined>;
  orderCounts(): Promise<OrderCounts>;
}

/** The parts of a member's name their display name is made of (shared/src/api/account.ts displayNameOf). */
export interface MemberNames {
  first_name: string;
  last_name: string;
  display_name?: string;
}
