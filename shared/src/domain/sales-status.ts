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
 * fulfilled (`processing`: it may be sent to Stripe), in the member's Stripe balance (`in_stripe`),
 * paid to their debit card (`paid`). A failed payout puts it back in Stripe.
 */
export const COMMISSION_STATUSES = ['order_open', 'processing', 'in_stripe', 'paid'] as const;
export type CommissionStatus = (typeof COMMISSION_STATUSES)[number];

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

/** The only moves of a commission: its order fulfilled, the transfer, the payout, a failed payout. */
export const COMMISSION_TRANSITIONS = [
  { from: 'order_open', to: 'processing' },
  { from: 'processing', to: 'in_stripe' },
  { from: 'in_stripe', to: 'paid' },
  { from: 'paid', to: 'in_stripe' },
  // Settled in a payout batch against the member's clawback debt: no money moves (commissions/batches.ts).
  { from: 'processing', to: 'paid' },
] as const satisfies readonly Transition<CommissionStatus>[];

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

/** The spec's commission flags. */
export function commissionFlags(status: CommissionStatus): CommissionFlags {
  return {
    orderFulfilled: flag(status !== 'order_open'),
    isInCustomersAccount: flag(status === 'in_stripe' || status === 'paid'),
    isPayed: flag(status === 'paid'),
  };
}

/** The API's three commission states: both in-processing statuses are 'processing'. */
export function commissionState(status: CommissionStatus): 'processing' | 'in_stripe' | 'paid' {
  return status === 'order_open' ? 'processing' : status;
}

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

export const LEGACY_COMMISSION_FLAGS: Record<CommissionStatus, Partial<CommissionFlags>> = {
  order_open: { isPayed: 0, isInCustomersAccount: 0, orderFulfilled: 0 },
  processing: { isPayed: 0, isInCustomersAccount: 0, orderFulfilled: 1 },
  in_stripe: { isPayed: 0, isInCustomersAccount: 1 },
  paid: { isPayed: 1 },
};
