import type { Order, OrderList, OrderStatusFilter } from '@portal/shared/api/sales';
import type { DataColumn } from '@portal/shared/ui/components/LazyDataTable';
import type { SearchField, SearchValue } from '@portal/shared/ui/components/TableSearch';
import { formatMoney } from '@portal/shared/domain/format';
import { EmailText } from '@portal/shared/ui/components/EmailText';
import type { OrderSearchFields } from './queries';

/** Where an order stands: its next step, or fulfilled. */
export function orderStage(order: Pick<Order, 'isOrdered' | 'isShipped' | 'isFufilled'>): string {
  if (order.isFufilled) return 'Fulfilled';
  if (order.isShipped) return 'Shipped';
  if (order.isOrdered) return 'Ordered';
  return 'Not ordered yet';
}

const money = (dollars: number) => formatMoney(Math.round(dollars * 100));

/**
 * Where an order stands, with what a person must know before acting on it: closed when refunded
 * in full (or a dispute lost), else its step, partly refunded, a dispute open, flagged.
 */
export function orderStatusWords(order: Order): string {
  if (order.refundState === 'full') {
    return order.dispute?.status === 'lost' && order.refunds.at(-1)?.kind === 'dispute'
      ? 'Closed: dispute lost, nothing to send'
      : 'Refunded in full, nothing to send';
  }
  const parts = [orderStage(order)];
  if (order.refundState === 'partial') parts.push(`Partly refunded (${money(order.refunded)})`);
  if (order.dispute?.status === 'open') parts.push('Dispute open');
  if (order.flag) parts.push(`Flagged: ${order.flag}`);
  return parts.join('. ');
}

/** The next mark of an order, wherever it is opened: none once fulfilled or refunded in full. */
export function nextMark(order: Order) {
  if (order.refundState === 'full') return null;
  if (!order.isOrdered) return ORDER_LISTS.not_ordered.mark;
  if (!order.isShipped) return ORDER_LISTS.not_shipped.mark;
  if (!order.isFufilled) return ORDER_LISTS.not_fulfilled.mark;
  return null;
}

/**
 * The tables' columns, defined here only (the quantity and the customer are on the detail card):
 * they fit a desktop page; a phone shows each order as a card with every column.
 */
export const orderColumns: DataColumn<Order>[] = [
  {
    id: 'created_at',
    header: 'Order date',
    value: (order) => order.created_at,
    kind: 'date',
    minWidth: 160,
    wrap: true,
    hideOnPhone: true,
  },
  { id: 'orderID', header: 'Order ID', value: (order) => order.orderID, minWidth: 135 },
  { id: 'product', header: 'Product', value: (order) => order.product_name, minWidth: 100, flex: 2 },
  { id: 'total', header: 'Total', value: (order) => order.totalPayed, kind: 'money', minWidth: 90 },
  {
    id: 'member',
    header: 'Member',
    value: (order) => order.member?.email ?? '—',
    render: (order) => (order.member ? <EmailText email={order.member.email} /> : '—'),
    minWidth: 130,
    flex: 2,
    wrap: true,
    hideOnPhone: true,
  },
  {
    id: 'stage',
    header: 'Status',
    // A flagged, refunded or disputed order says so beside its step.
    value: orderStatusWords,
    minWidth: 150,
    flex: 2,
    wrap: true,
    hideOnPhone: true,
  },
];

/** The three work lists: their paths (as the spec spells them), names and mark calls. */
export const ORDER_LISTS = {
  not_ordered: {
    path: '/orders/not_ordered_yet',
    title: 'Not ordered yet',
    lead: 'Paid orders still to be ordered from the supplier.',
    empty: 'No orders waiting to be ordered.',
    mark: { call: 'markAsOrdered', label: 'Mark as Ordered', done: 'ordered' },
    counter: 'notOrdered',
  },
  not_shipped: {
    path: '/orders/not_shipped_yet',
    title: 'Not shipped yet',
    lead: 'Orders placed with the supplier that have not shipped yet.',
    empty: 'No orders waiting to ship.',
    mark: { call: 'markAsShipped', label: 'Mark as Shipped', done: 'shipped' },
    counter: 'notShipped',
  },
  not_fulfilled: {
    path: '/orders/not_fufilled_yet',
    title: 'Not fulfilled yet',
    lead: 'Shipped orders not yet delivered to the customer.',
    empty: 'No orders waiting to be fulfilled.',
    mark: { call: 'markAsFufilled', label: 'Mark as Fulfilled', done: 'fulfilled' },
    counter: 'notFulfilled',
  },
} as const satisfies Record<Exclude<OrderList, 'all'>, unknown>;

export type WorkList = keyof typeof ORDER_LISTS;

/** How All orders is searched (on the server; getOrders' search fields). */
export const ORDER_SEARCH_FIELDS: readonly SearchField[] = [
  { id: 'orderNumber', label: 'Order number', hint: 'As on the receipt, like RP-7F3K9Q2M.' },
  {
    id: 'member',
    label: 'Member e-mail',
    hint: 'The e-mail address of the member who shared the product.',
    type: 'email',
  },
  { id: 'product', label: 'Product SPU or ID', hint: 'The SPU number from the catalogue file, or the product’s ID.' },
];

export const ORDER_STATUS_CHOICES: readonly { value: OrderStatusFilter; label: string }[] = [
  { value: 'not_ordered', label: 'Not ordered yet' },
  { value: 'ordered', label: 'Ordered' },
  { value: 'shipped', label: 'Shipped' },
  { value: 'fulfilled', label: 'Fulfilled' },
];

/** The search form's value as getOrders' fields (none when the form is empty). */
export function orderSearchOf(value: SearchValue): OrderSearchFields | undefined {
  const text = value.text.trim();
  const search: OrderSearchFields = {};
  if (text !== '' && (value.by === 'orderNumber' || value.by === 'member' || value.by === 'product'))
    search[value.by] = text;
  if (value.status !== '') search.status = value.status as OrderStatusFilter;
  return Object.keys(search).length > 0 ? search : undefined;
}
