import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Order } from '@portal/shared/api/sales';
import { useCursorPages } from '@portal/shared/ui/hooks/CursorPages';
import { DataTable } from '@portal/shared/ui/components/LazyDataTable';
import { Page } from '@portal/shared/ui/components/Page';
import { OrderCard } from '../sales/OrderCard';
import { ORDER_LISTS, orderColumns, type WorkList } from '../sales/orderColumns';
import { reloadSales, useOrders } from '../sales/queries';
import { BackLink, ListFrame, SuccessNotice } from '../sales/SalesUi';

/**
 * '/admin/orders/not_ordered_yet', '/not_shipped_yet', '/not_fufilled_yet': the orders whose next
 * step is this list's (with the enforced order of the steps, the list whose mark button can act).
 * A row opens its detail card, whose button marks the step done.
 */
export function OrderListScreen({ list }: { list: WorkList }) {
  const queryClient = useQueryClient();
  const config = ORDER_LISTS[list];
  const query = useOrders(list);
  const pages = useCursorPages(query);
  const count = query.data?.pages[0]?.counters[config.counter];
  const [open, setOpen] = useState<Order | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const onMarked = (order: Order, done: string) => {
    setOpen(null);
    setNotice(`Order ${order.orderID} marked as ${done}.`);
    void reloadSales(queryClient);
  };

  return (
    <Page
      title={config.title}
      description={count === undefined ? config.lead : `${config.lead} ${count === 1 ? '1 order' : `${count} orders`}.`}
    >
      <BackLink to="/orders" label="Orders" />
      <SuccessNotice message={notice} onDismiss={notice ? () => setNotice(null) : undefined} />
      {open ? (
        <OrderCard
          key={open.id}
          order={open}
          onClose={() => setOpen(null)}
          onMarked={onMarked}
          onConflict={() => void reloadSales(queryClient)}
          onRefunded={(_refunded, message) => {
            setOpen(null);
            setNotice(message);
            void reloadSales(queryClient);
          }}
        />
      ) : null}
      <ListFrame pages={pages} noun="orders">
        <DataTable
          rows={pages.items}
          columns={orderColumns}
          rowId={(order) => order.id}
          label={config.title}
          emptyMessage={config.empty}
          tableId={`admin.orders.${list}`}
          rowLabel={(order) => `order ${order.orderID}`}
          onRowActivate={(order) => {
            setNotice(null);
            setOpen(order);
          }}
        />
      </ListFrame>
    </Page>
  );
}
