import type { Order, OrderList } from '@portal/shared/api/sales';
import type { DataColumn } from '@portal/shared/ui/components/LazyDataTable';

/** Where an order stands: its next step, or fulfilled. */
export function orderStage(order: Pick<Order, 'isOrdered' | 'isShipped' | 'isFufilled'>): string {
  if (order.isFufilled) return 'Fulfilled';
  if (order.isShipped) return 'Shipped';
  if (order.isOrdered) return 'Ordered';
  return 'Not ordered yet';
}

/**
 * The tables' columns (the quantity and the customer are on the detail card): they fit a desktop
 * page, and a phone shows the order ID, product and total (the card, a tap away, has the rest).
 */
export const orderColumns: DataColumn<Order>[] = [
  {
    id: 'created_at',
    header: 'Order date',
    value: (order) => order.created_at,
    kind: 'date',
    minWidth: 265,
    hideOnPhone: true,
  },
  { id: 'orderID', header: 'Order ID', value: (order) => order.orderID, minWidth: 145 },
  { id: 'product', header: 'Product', value: (order) => order.product_name, minWidth: 100, flex: 2 },
  { id: 'total', header: 'Total', value: (order) => order.totalPayed, kind: 'money', minWidth: 100 },
  { id: 'member', header: 'Member', value: (order) => order.member?.email ?? '—', minWidth: 150, hideOnPhone: true },
  { id: 'stage', header: 'Status', value: orderStage, minWidth: 150, hideOnPhone: true },
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
  not_fufilled: {
    path: '/orders/not_fufilled_yet',
    title: 'Not fulfilled yet',
    lead: 'Shipped orders not yet delivered to the customer.',
    empty: 'No orders waiting to be fulfilled.',
    mark: { call: 'markAsFufilled', label: 'Mark as Fulfilled', done: 'fulfilled' },
    counter: 'notFufilled',
  },
} as const satisfies Record<Exclude<OrderList, 'all'>, unknown>;

export type WorkList = keyof typeof ORDER_LISTS;
