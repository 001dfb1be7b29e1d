import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { Order } from '@portal/shared/api/sales';
import { formatCount } from '@portal/shared/domain/format';
import { useCursorPages } from '@portal/shared/ui/hooks/CursorPages';
import { DataTable } from '@portal/shared/ui/components/LazyDataTable';
import { Page } from '@portal/shared/ui/components/Page';
import { SearchedList, emptySearch, type SearchValue } from '@portal/shared/ui/components/TableSearch';
import { OrderCard } from '../sales/OrderCard';
import {
  ORDER_LISTS,
  ORDER_SEARCH_FIELDS,
  ORDER_STATUS_CHOICES,
  orderColumns,
  orderSearchOf,
} from '../sales/orderColumns';
import { reloadSales, useOrders } from '../sales/queries';
import { RecordOrderForm } from '../sales/RecordOrderForm';
import { CountLink, ExportCsvButton, ListFrame, SuccessNotice, searchErrors } from '../sales/SalesUi';

/**
 * '/admin/orders': every order, newest first, with the counters (kept with the orders, no scans),
 * the three work lists with their counts, the CSV export and 'Record an order'.
 */
export function OrdersScreen() {
  const queryClient = useQueryClient();
  // '/admin/orders?order=RP-…' (the admins' dispute mail): that order searched, and its card opened.
  const [params] = useSearchParams();
  const linked = params.get('order')?.trim().toUpperCase() ?? '';
  const [search, setSearch] = useState<SearchValue>(() => ({ ...emptySearch('orderNumber'), text: linked }));
  const fields = useMemo(() => orderSearchOf(search), [search]);
  const query = useOrders('all', fields);
  const refused = searchErrors(query.error, ['orderNumber', 'member', 'product', 'status']);
  const pages = useCursorPages(query);
  const counters = query.data?.pages[0]?.counters ?? null;
  // While the first page loads: '…'; when it failed (the list says why): '—'.
  const waiting = query.isError ? '—' : '…';
  const [chosen, setChosen] = useState<Order | null>(null);
  // The linked order's card is open until the admin closes it or opens another.
  const [linkDone, setLinkDone] = useState(false);
  const linkedOrder = linked && !linkDone ? (pages.items.find((order) => order.orderID === linked) ?? null) : null;
  const open = chosen ?? linkedOrder;
  const setOpen = (order: Order | null) => {
    setLinkDone(true);
    setChosen(order);
  };
  const [notice, setNotice] = useState<string | null>(null);

  return (
    <Page
      title="Orders"
      description="Customer orders, from ordered through shipped to fulfilled."
      actions={<ExportCsvButton kind="orders" />}
    >
      <SuccessNotice message={notice} onDismiss={notice ? () => setNotice(null) : undefined} />
      <dl className="sales-summary" aria-label="Order counts">
        <div className="sales-summary__item">
          <dt>Orders</dt>
          <dd data-testid="orders-total">{counters ? formatCount(counters.all) : waiting}</dd>
        </div>
        <div
          className={
            counters && counters.notOrdered > 0
              ? 'sales-summary__item sales-summary__item--attention'
              : 'sales-summary__item'
          }
        >
          <dt>Need to be ordered</dt>
          <dd data-testid="orders-need-ordering">{counters ? formatCount(counters.notOrdered) : waiting}</dd>
        </div>
      </dl>
      <nav className="sales-links" aria-label="Order lists">
        {(Object.keys(ORDER_LISTS) as (keyof typeof ORDER_LISTS)[]).map((list) => {
          const config = ORDER_LISTS[list];
          return (
            <CountLink
              key={list}
              to={config.path}
              label={config.title}
              count={counters ? counters[config.counter] : null}
            />
          );
        })}
      </nav>
      <RecordOrderForm onRecorded={setNotice} />
      {open ? (
        <OrderCard
          key={open.id}
          order={open}
          onClose={() => setOpen(null)}
          onMarked={(order, done) => {
            setOpen(null);
            setNotice(`Order ${order.orderID} marked as ${done}.`);
            void reloadSales(queryClient);
          }}
          onConflict={() => void reloadSales(queryClient)}
          onRefunded={(_refunded, message) => {
            setOpen(null);
            setNotice(message);
            void reloadSales(queryClient);
          }}
        />
      ) : null}
      <h2 className="sales-section-title">All orders</h2>
      <SearchedList
        label="Search orders"
        noun="orders"
        fields={ORDER_SEARCH_FIELDS}
        statuses={ORDER_STATUS_CHOICES}
        value={search}
        onSearch={setSearch}
        refused={refused}
      >
        <ListFrame pages={pages} noun="orders">
          <DataTable
            rows={pages.items}
            columns={orderColumns}
            rowId={(order) => order.id}
            label="All orders"
            emptyMessage={fields ? 'No orders match this search.' : 'No orders yet.'}
            tableId="admin.orders.all"
            rowLabel={(order) => `order ${order.orderID}`}
            onRowActivate={setOpen}
          />
        </ListFrame>
      </SearchedList>
    </Page>
  );
}
