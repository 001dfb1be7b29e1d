import { EXPORT_MAX_ROWS, type OrderList, type OrderPage, type OrderStatusFilter } from '@portal/shared/api/sales';
import { productIdFromSpuNo } from '@portal/shared/domain/csv-product';
import { orderStepFrom } from '@portal/shared/domain/sales-status';
import { DomainError, conflict } from '../errors';
import { toCsv } from '../imports/csv-export';
import { toOrder } from './present';
import type {
  CommissionRecord,
  FulfilmentHold,
  OrderListName,
  OrderRecord,
  OrderSearch,
  OrderStep,
  Page,
  SalesStore,
} from './sales-store';
import type { OrderStatus } from '@portal/shared/domain/sales-status';
import type { Shipment } from '@portal/shared/api/order-page';

/** Rows per page when the caller does not ask for a number. */
export const DEFAULT_LIST_LIMIT = 100;

/**
 * One page of an order list, newest first, with the counters. The stage lists hold the orders
 * whose NEXT step is that one (not ordered → awaiting ordering; ordered → awaiting shipping;
 * shipped → awaiting fulfilment): with the marks enforced in order, that is the list whose mark
 * button can act.
 */
export async function ordersPage(
  sales: SalesStore,
  list: OrderList,
  cursor: string | undefined,
  limit: number | undefined,
  search: OrdersSearchRequest = {},
): Promise<OrderPage> {
  const wanted = await orderSearch(sales, search);
  const [page, counts] = await Promise.all([
    wanted
      ? sales.searchOrders(wanted, cursor, limit ?? DEFAULT_LIST_LIMIT)
      : sales.ordersPage(LIST_OF[list], cursor, limit ?? DEFAULT_LIST_LIMIT),
    sales.orderCounts(),
  ]);
  const counters = {
    all: counts.all,
    notOrdered: counts.notOrdered,
    notShipped: counts.notShipped,
    notFulfilled: counts.notFulfilled,
  };
  return { items: page.items.map(toOrder), nextCursor: page.nextCursor, counters };
}

/** The search fields of getOrders, as its schema left them (trimmed; the e-mail lower-cased, the order number as written on it). */
export interface OrdersSearchRequest {
  orderNumber?: string;
  member?: string;
  product?: string;
  status?: OrderStatusFilter;
}

export const NO_MEMBER_WITH_EMAIL = 'No member has this e-mail address; check it, or search by order number.';

/** A product as a search names it: its 32-character id as it is, else its SPU number's id. */
export const productIdOf = (text: string): string =>
  /^[0-9a-f]{32}$/i.test(text) ? text.toLowerCase() : productIdFromSpuNo(text);

/**
 * The search to run, or null for none. A member is found by their e-mail first: an address no
 * member has is a 404 at the field, so the admin knows it is the address and not the orders.
 */
async function orderSearch(sales: SalesStore, request: OrdersSearchRequest): Promise<OrderSearch | null> {
  const { orderNumber, member, product, status } = request;
  if (orderNumber === undefined && member === undefined && product === undefined && status === undefined) return null;
  const search: OrderSearch = { status };
  if (orderNumber !== undefined) search.orderNumber = orderNumber;
  if (product !== undefined) search.productId = productIdOf(product);
  if (member !== undefined) search.memberId = (await memberIdOf(sales, member)).id;
  return search;
}

/** The member with this e-mail, or a 404 in words at `member`. */
export async function memberIdOf(
  sales: Pick<SalesStore, 'memberByEmail'>,
  email: string,
): Promise<{ id: string; email: string }> {
  const found = await sales.memberByEmail(email);
  if (!found) throw new DomainError('not-found', NO_MEMBER_WITH_EMAIL, { fields: { member: NO_MEMBER_WITH_EMAIL } });
  return found;
}

/** The API's list names → the stored lists'. */
const LIST_OF: Record<OrderList, OrderListName> = {
  all: 'all',
  not_ordered: 'not_ordered',
  not_shipped: 'not_shipped',
  not_fulfilled: 'not_fulfilled',
};

const WORD: Record<OrderStatus, string> = {
  not_ordered: 'not ordered',
  ordered: 'ordered',
  shipped: 'shipped',
  fulfilled: 'fulfilled',
};
const BEFORE = (step: OrderStep): OrderStatus => orderStepFrom(step);

export const NO_SUCH_ORDER = 'There is no order with this id.';
export const alreadyMarked = (step: OrderStep) =>
  `This order was already marked as ${WORD[step]} by someone else; the list is reloaded.`;
export const notYet = (step: OrderStep) =>
  `This order is not marked as ${WORD[BEFORE(step)]} yet: mark it as ${WORD[BEFORE(step)]} first.`;

/** Why an order refunded in full (or lost in a dispute) is not marked: nothing is left to send. */
export const refundedInFull = (order: OrderRecord): string =>
  order.refunds?.at(-1)?.kind === 'dispute'
    ? `This order's payment was taken back by the customer's bank (a dispute lost): there is nothing to send. The list is reloaded.`
    : 'This order was refunded in full: there is nothing to send. The list is reloaded.';

/**
 * A fulfilled order puts its commission on hold until `availableAt` (fulfilment + COMMISSION_HOLD_DAYS,
 * the refund window): order_open → processing, and its place in the To Stripe list sorts by that
 * time. One held for review while its order was open (a dispute, a self-purchase) keeps its review,
 * and the hold waits for its release. Any other stays as it is: a cancelled one (refunded in full)
 * stays cancelled, one moved on already is not moved back.
 */
export function holdOnFulfilment(
  commission: Pick<CommissionRecord, 'status' | 'heldFrom'>,
  availableAt: number,
): FulfilmentHold | undefined {
  if (commission.status === 'order_open') return { availableAt, underReview: false };
  if (commission.status === 'review' && commission.heldFrom === 'order_open') return { availableAt, underReview: true };
  return undefined;
}

/**
 * Marks an order: ordered only from not ordered, shipped only from ordered, fulfilled only from
 * shipped (conditional writes from the transition table; the stage and counters move in the same
 * transaction, and fulfilment moves the commission on to processing). Of two admins marking at once one wins; the
 * other gets a 409 saying so.
 */
export async function markOrder(
  sales: SalesStore,
  id: string,
  step: OrderStep,
  now: number,
  shipment?: Shipment | null,
  holdMs = 0,
) {
  // Fulfilment starts the commission's hold (COMMISSION_HOLD_DAYS): it is available from then.
  const hold =
    step === 'fulfilled' ? (commission: CommissionRecord) => holdOnFulfilment(commission, now + holdMs) : undefined;
  const result = await sales.markOrder(id, step, new Date(now).toISOString(), shipment, hold);
  if (result.outcome === 'not-found')
    throw new DomainError('not-found', NO_SUCH_ORDER, { fields: { id: NO_SUCH_ORDER } });
  if (result.outcome === 'refunded') throw conflict(refundedInFull(result.order));
  if (result.outcome === 'already') throw conflict(alreadyMarked(step));
  if (result.outcome === 'too-early') throw conflict(notYet(step));
  return { order: toOrder(result.order) };
}

/**
 * Marks an order shipped, with the carrier and tracking number when the admin gave them, then
 * mails the customer (`shipped`, which sends once per order: email/send-once.ts). A second mark
 * is a 409 as for every mark, but it first gives the mail its chance: when the first call died
 * between the mark and the mail, the admin's retry sends it (once).
 */
export async function markShipped(
  sales: SalesStore,
  id: string,
  shipment: Shipment | null,
  now: number,
  shipped: (order: OrderRecord) => Promise<unknown>,
) {
  const result = await sales.markOrder(id, 'shipped', new Date(now).toISOString(), shipment);
  if (result.outcome === 'done') {
    await shipped(result.order);
    return { order: toOrder(result.order) };
  }
  if (result.outcome === 'already') await shipped(result.order);
  if (result.outcome === 'not-found')
    throw new DomainError('not-found', NO_SUCH_ORDER, { fields: { id: NO_SUCH_ORDER } });
  if (result.outcome === 'refunded') throw conflict(refundedInFull(result.order));
  if (result.outcome === 'already') throw conflict(alreadyMarked('shipped'));
  throw conflict(notYet('shipped'));
}

/** Rows read per Query while exporting. */
const EXPORT_PAGE = 500;

const ORDER_HEADER = [
  'orderID',
  'created_at',
  'product_name',
  'brand',
  'spu_no',
  'product_url',
  'qty',
  'sell_price',
  'totalPayed',
  'customer_name',
  'customer_email',
  'address',
  'member_email',
  'source',
  'isOrdered',
  'isShipped',
  'isFufilled',
  'refunded',
  'exception',
];

/** An order's exception in the export's words: refunded (in full or in part), a dispute open or lost. */
const orderException = (order: ReturnType<typeof toOrder>): string =>
  [
    order.refundState === 'full' ? 'refunded in full' : order.refundState === 'partial' ? 'partly refunded' : '',
    order.dispute?.status === 'open' ? 'dispute open' : order.dispute?.status === 'lost' ? 'dispute lost' : '',
  ]
    .filter(Boolean)
    .join('; ');

const orderRow = (record: OrderRecord) => {
  const order = toOrder(record);
  const address = order.customer.address;
  return [
    order.orderID,
    order.created_at,
    order.product_name,
    order.brand,
    order.spu_no,
    order.product_url,
    order.qty,
    order.sell_price.toFixed(2),
    order.totalPayed.toFixed(2),
    order.customer.name,
    order.customer.email,
    [address.line1, address.line2, address.city, address.state, address.postal_code].filter(Boolean).join(', '),
    order.member?.email ?? '',
    order.source,
    order.isOrdered,
    order.isShipped,
    order.isFufilled,
    order.refunded.toFixed(2),
    orderException(order),
  ];
};

/** One list's rows as CSV: its header, one row per record, and the page reader of the list. */
export interface CsvList<T> {
  kind: 'orders' | 'commissions';
  header: readonly string[];
  row: (record: T) => (string | number | null)[];
  page: (cursor: string | undefined, limit: number) => Promise<Page<T>>;
}

/**
 * A whole list as CSV (formula-escaped, as the rejected-rows download), newest first, paging
 * through it; at most EXPORT_MAX_ROWS rows, and `truncated` says when the list held more.
 */
export async function exportList<T>(list: CsvList<T>, now: number) {
  const rows: (string | number | null)[][] = [];
  let cursor: string | undefined;
  let truncated = false;
  do {
    const page = await list.page(cursor, Math.min(EXPORT_PAGE, EXPORT_MAX_ROWS - rows.length));
    rows.push(...page.items.map(list.row));
    cursor = page.nextCursor ?? undefined;
    if (cursor && rows.length >= EXPORT_MAX_ROWS) {
      // A page ending exactly at the cap may be the last: look one row further.
      truncated = (await list.page(cursor, 1)).items.length > 0;
      break;
    }
  } while (cursor);
  const day = new Date(now).toISOString().slice(0, 10);
  return {
    fileName: `${list.kind}-${day}.csv`,
    csv: toCsv(list.header, rows),
    rows: rows.length,
    ...(truncated ? { truncated: true } : {}),
  };
}

/** All orders as CSV (exportList). */
export const exportOrders = (sales: Pick<SalesStore, 'ordersPage'>, now: number) =>
  exportList<OrderRecord>(
    {
      kind: 'orders',
      header: ORDER_HEADER,
      row: orderRow,
      page: (cursor, limit) => sales.ordersPage('all', cursor, limit),
    },
    now,
  );
