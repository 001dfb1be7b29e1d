import { infiniteQueryOptions, useInfiniteQuery, type QueryClient } from '@tanstack/react-query';
import type { OrderList } from '@portal/shared/api/sales';
import type { ResponseOf } from '@portal/shared/api/contract';
import { queryKeys } from '@portal/shared/query/keys';
import { useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import type { AuthStore } from '@portal/shared/ui/hooks/AuthProvider';
import { SALES_PAGE_SIZE } from './pageSize';

/**
 * The admin's orders and payouts lists: cursor pages of 100 (the server's default), newest first;
 * the screens show the loaded rows in a DataTable and ask for the next page with 'Load more'.
 */

type Call = AuthStore['call'];

export { SALES_PAGE_SIZE };

const cursorPaging = {
  initialPageParam: undefined as string | undefined,
  getNextPageParam: (last: { nextCursor: string | null }) => last.nextCursor ?? undefined,
};

export type OrderPageData = ResponseOf<'getOrders'>;
export type CommissionPageData = ResponseOf<'getCommisions'>;
export type CommissionListName = 'all' | 'to_stripe' | 'to_be_payed';

export const ordersQuery = (call: Call, list: OrderList) =>
  infiniteQueryOptions({
    queryKey: queryKeys.orders.list(list),
    queryFn: ({ pageParam, signal }): Promise<OrderPageData> => {
      const page = { cursor: pageParam, limit: SALES_PAGE_SIZE };
      switch (list) {
        case 'not_ordered':
          return call('getOrdersNotOrdered', page, { signal });
        case 'not_shipped':
          return call('getOrdersNotShipped', page, { signal });
        case 'not_fufilled':
          return call('getOrdersNotFufilled', page, { signal });
        default:
          return call('getOrders', { ...page, type: 'all' }, { signal });
      }
    },
    ...cursorPaging,
  });

export const commissionsQuery = (call: Call, list: CommissionListName) =>
  infiniteQueryOptions({
    queryKey: queryKeys.payouts.list(list),
    queryFn: ({ pageParam, signal }): Promise<CommissionPageData> => {
      const page = { cursor: pageParam, limit: SALES_PAGE_SIZE };
      if (list === 'to_stripe') return call('getCommisionsToStripe', page, { signal });
      if (list === 'to_be_payed') return call('getCommisionsToBePayed', page, { signal });
      return call('getCommisions', page, { signal });
    },
    ...cursorPaging,
  });

export const topEarnersQuery = (call: Call) =>
  infiniteQueryOptions({
    queryKey: queryKeys.payouts.topEarners(),
    queryFn: ({ pageParam, signal }) =>
      call('getTopEarners', { cursor: pageParam, limit: SALES_PAGE_SIZE }, { signal }),
    ...cursorPaging,
  });

export function useOrders(list: OrderList) {
  const { call } = useAuth();
  return useInfiniteQuery(ordersQuery(call, list));
}

export function useCommissions(list: CommissionListName) {
  const { call } = useAuth();
  return useInfiniteQuery(commissionsQuery(call, list));
}

export function useTopEarners() {
  const { call } = useAuth();
  return useInfiniteQuery(topEarnersQuery(call));
}

/** After an order changes: every order list and its counters, and the commissions it may have made. */
export async function reloadSales(client: QueryClient): Promise<void> {
  await Promise.all([
    client.invalidateQueries({ queryKey: queryKeys.orders.all }),
    client.invalidateQueries({ queryKey: queryKeys.payouts.all }),
  ]);
}
