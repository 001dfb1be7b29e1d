import type { CommissionStatus as CommissionStatusView } from '../api/sales';
import { formatDate } from './format';
/**
 * One status per order and per commission, and the spec's 0/1 flags derived from it. The flags
 * (`isOrdered`, `isShipped`, `isFufilled`; `orderFulfilled`, `isInCustomersAccount`, `isPayed`)
 * are the API's words, spelled as the spec spells them; inside, only the status is stored and
 * moved, along the transitions below (shared/src/db/sales-status.ts builds each write's
 * condition from them). Items stored before the status existed carry only the flags: they read
 * through `orderStatusOf` / `commissionStatusOf`, and their first transition replaces the flags
 * with the status.
 */

export const ORDER_STATUSES = ['not_ordered', 'ordered', 'shipped', 'fulfilled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * A commission: in processing while its order is open (`order_open`), in processing with its order
 * fulfilled (`processing`: on hold until its `availableAt`, then available to send to Stripe), in
 * the member's Stripe balance (`in_stripe`), paid to their debit card (`paid`). A failed payout
 * puts it back in Stripe. The side exits: `cancelled` (refunded before anything was sent),
 * `reversed` (sent to Stripe, not paid out, then the transfer was reversed), `clawed_back` (paid
 * out, then taken back from the member's next payouts), `review` (held for an admin: a dispute).
 */
export const COMMISSION_STATUSES = [
  'order_open',
  'processing',
  'in_stripe',
  'paid',
  'cancelled',
  'reversed',
  'clawed_back',
  'review',
] as const;
export type CommissionStatus = (typeof COMMISSION_STATUSES)[number];

/** The statuses in which a commission still carries money the member may get (or has got). */
export const LIVE_COMMISSION_STATUSES = ['order_open', 'processing', 'in_stripe', 'paid'] as const;
export type LiveCommissionStatus = (typeof LIVE_COMMISSION_STATUSES)[number];

export interface Transition<S extends string> {
  from: S;
  to: S;
}

/** The only moves of an order: each mark from the step before it. */
export const ORDER_TRANSITIONS = [
  { from: 'not_ordered', to: 'ordered' },
  { from: 'ordered', to: 'shipped' },
  { from: 'shipped', to: 'fulfilled' },
] as const satisfies readonly Transition<OrderStatus>[];

/**
 * The only moves of a commission: its order fulfilled, the transfer, the payout, a failed payout;
 * a full refund of its order (cancelled before it was sent, reversed after, clawed back once paid),
 * and that refund failing (cancelled: back where it was); a dispute holding it for review and its
 * end (won: back where it was; lost: as a full refund).
 */
export const COMMISSION_TRANSITIONS = [
  { from: 'order_open', to: 'processing' },
  { from: 'processing', to: 'in_stripe' },
  { from: 'in_stripe', to: 'paid' },
  { from: 'paid', to: 'in_stripe' },
  { from: 'order_open', to: 'cancelled' },
  { from: 'processing', to: 'cancelled' },
  { from: 'in_stripe', to: 'reversed' },
  { from: 'paid', to: 'clawed_back' },
  { from: 'order_open', to: 'review' },
  { from: 'processing', to: 'review' },
  { from: 'in_stripe', to: 'review' },
  { from: 'paid', to: 'review' },
  { from: 'review', to: 'order_open' },
  { from: 'review', to: 'processing' },
  { from: 'review', to: 'in_stripe' },
  { from: 'review', to: 'paid' },
  { from: 'review', to: 'cancelled' },
  { from: 'review', to: 'reversed' },
  { from: 'review', to: 'clawed_back' },
  // Settled in a payout batch against the member's clawback debt: no money moves (commissions/batches.ts).
  { from: 'processing', to: 'paid' },
  // The full refund that cancelled it (nothing was sent) failed at Stripe: it is back (decision 0340).
  { from: 'cancelled', to: 'order_open' },
  { from: 'cancelled', to: 'processing' },
] as const satisfies readonly Transition<CommissionStatus>[];

/**
 * Where a full refund takes a commission from each live status: nothing sent → cancelled, in the
 * member's Stripe balance → reversed (a transfer reversal), paid out → clawed back (owed by the member).
 */
export const FULL_REFUND_EXIT: Record<LiveCommissionStatus, CommissionStatus> = {
  order_open: 'cancelled',
  processing: 'cancelled',
  in_stripe: 'reversed',
  paid: 'clawed_back',
};

export const isLiveCommissionStatus = (status: CommissionStatus): status is LiveCommissionStatus =>
  (LIVE_COMMISSION_STATUSES as readonly string[]).includes(status);

/** The status a move to `to` starts from, or undefined when no transition leads there from `from`. */
export function transitionTo<S extends string>(
  table: readonly Transition<S>[],
  from: S,
  to: S,
): Transition<S> | undefined {
  return table.find((move) => move.from === from && move.to === to);
}

/** The one status an order moves to `to` from (each status has one way in). */
export function orderStepFrom(to: Exclude<OrderStatus, 'not_ordered'>): OrderStatus {
  return ORDER_TRANSITIONS.find((move) => move.to === to)!.from;
}

type Flag = 0 | 1;
const flag = (value: boolean): Flag => (value ? 1 : 0);

export interface OrderFlags {
  isOrdered: Flag;
  isShipped: Flag;
  isFufilled: Flag;
}

export interface CommissionFlags {
  orderFulfilled: Flag;
  isInCustomersAccount: Flag;
  isPayed: Flag;
}

const orderRank = (status: OrderStatus) => ORDER_STATUSES.indexOf(status);

/** The spec's order flags: each step done so far. */
export function orderFlags(status: OrderStatus): OrderFlags {
  const rank = orderRank(status);
  return { isOrdered: flag(rank >= 1), isShipped: flag(rank >= 2), isFufilled: flag(rank >= 3) };
}

/** The spec's commission flags (a side exit is in no customer's account and not paid: nothing is owed). */
export function commissionFlags(status: CommissionStatus): CommissionFlags {
  return {
    orderFulfilled: flag(status !== 'order_open'),
    isInCustomersAccount: flag(status === 'in_stripe' || status === 'paid'),
    isPayed: flag(status === 'paid'),
  };
}

/**
 * The API's three commission states of before: both in-processing statuses are 'processing', and so
 * are the side exits and a held commission (nothing of them is in the member's balance or paid);
 * `status` (presentedStatus) says which.
 */
export function commissionState(status: CommissionStatus): 'processing' | 'in_stripe' | 'paid' {
  return status === 'in_stripe' || status === 'paid' ? status : 'processing';
}

/** A commission's status as the member and the admin read it (the API's `status`). */
export type PresentedCommissionStatus = CommissionStatusView;

/**
 * The presented status: a fulfilled commission (`processing`) is on hold before its `availableAt`
 * (epoch ms) and available from it; one stored without `availableAt` (before the hold) is available.
 */
export function presentedStatus(
  status: CommissionStatus,
  availableAt: number | undefined,
  now: number,
): PresentedCommissionStatus {
  if (status === 'order_open') return 'waiting_for_fulfilment';
  if (status === 'processing') return availableAt !== undefined && availableAt > now ? 'on_hold' : 'available';
  return status;
}

/** Whether a commission may be sent to Stripe now (the sendable condition of shared/src/db/sales-status.ts). */
export const isSendable = (status: CommissionStatus, availableAt: number | undefined, now: number): boolean =>
  presentedStatus(status, availableAt, now) === 'available';

const isOne = (value: unknown) => value === 1;

/** An order item's status: its `status`, or (stored before there was one) read from its flags. */
export function orderStatusOf(item: Record<string, unknown>): OrderStatus {
  const status = item.status;
  if (typeof status === 'string' && (ORDER_STATUSES as readonly string[]).includes(status)) {
    return status as OrderStatus;
  }
  if (isOne(item.isFufilled)) return 'fulfilled';
  if (isOne(item.isShipped)) return 'shipped';
  if (isOne(item.isOrdered)) return 'ordered';
  return 'not_ordered';
}

/** A commission item's status: its `status`, or (stored before there was one) read from its flags. */
export function commissionStatusOf(item: Record<string, unknown>): CommissionStatus {
  const status = item.status;
  if (typeof status === 'string' && (COMMISSION_STATUSES as readonly string[]).includes(status)) {
    return status as CommissionStatus;
  }
  if (isOne(item.isPayed)) return 'paid';
  if (isOne(item.isInCustomersAccount)) return 'in_stripe';
  if (isOne(item.orderFulfilled)) return 'processing';
  return 'order_open';
}

/**
 * What each status looked like as flags on an item stored before the status (the flags as the
 * old writes left them), for the condition of a first transition on such an item.
 */
export const LEGACY_ORDER_FLAGS: Record<OrderStatus, Partial<OrderFlags>> = {
  not_ordered: { isOrdered: 0 },
  ordered: { isOrdered: 1, isShipped: 0 },
  shipped: { isShipped: 1, isFufilled: 0 },
  fulfilled: { isFufilled: 1 },
};

/** Only the four statuses of before had flags; the later ones were never stored that way. */
export const LEGACY_COMMISSION_FLAGS: Partial<Record<CommissionStatus, Partial<CommissionFlags>>> = {
  order_open: { isPayed: 0, isInCustomersAccount: 0, orderFulfilled: 0 },
  processing: { isPayed: 0, isInCustomersAccount: 0, orderFulfilled: 1 },
  in_stripe: { isPayed: 0, isInCustomersAccount: 1 },
  paid: { isPayed: 1 },
};

/** Each presented status in people's words (the member's and the admin's lists). */
export const COMMISSION_STATUS_WORDS: Record<PresentedCommissionStatus, string> = {
  waiting_for_fulfilment: 'Waiting for fulfilment',
  on_hold: 'On hold',
  available: 'Available',
  in_stripe: 'In Stripe',
  paid: 'Paid',
  cancelled: 'Cancelled',
  reversed: 'Reversed',
  clawed_back: 'Clawed back',
  review: 'Held for review',
};

/** The day a person reads (UTC, as the server's words say it): "December 10th, 2026". */
const dayOf = (iso: string): string => formatDate(iso, 'UTC').replace(/ \d{1,2}:\d{2} [AP]M$/, '');

/**
 * A commission's status as one line: "On hold until December 10th, 2026", "Available", "Clawed
 * back: Order RP-… refunded in full (…)", "Held for review: Dispute opened on order …", with the
 * payout's failure when the last one failed; a paid one whose standard payout is still in transit
 * "Paid: on its way, expected December 1st, 2026".
 */
export function commissionStatusText(commission: {
  status: PresentedCommissionStatus;
  availableAt: string | null;
  statusReason: string | null;
  payoutFailure: string | null;
  payoutExpected?: string | null | undefined;
}): string {
  const words = COMMISSION_STATUS_WORDS[commission.status];
  // Built from parts, each without its own final period, joined by ". " (never "$5.00.. Payout").
  const clause = (text: string) => text.trim().replace(/\.+$/, '');
  const parts = [
    commission.status === 'on_hold' && commission.availableAt
      ? `${words} until ${dayOf(commission.availableAt)}`
      : commission.status === 'paid' && commission.payoutExpected
        ? `${words}: on its way, expected ${dayOf(commission.payoutExpected)}`
        : words,
    ...(commission.statusReason ? [clause(commission.statusReason)] : []),
    ...(commission.payoutFailure ? [`Payout failed: ${clause(commission.payoutFailure)}`] : []),
  ];
  return parts.length > 1 ? `${parts.join('. ')}.` : parts[0]!;
}
