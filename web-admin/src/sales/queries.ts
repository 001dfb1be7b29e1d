import { infiniteQueryOptions, useInfiniteQuery, useQuery, type QueryClient } from '@tanstack/react-query';
import type { MemberDebt } from '@portal/shared/api/payout-batches';
import type { CommissionsRequest, OrderList, OrdersRequest } from '@portal/shared/api/sales';
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
export type CommissionListName = 'all' | 'to_stripe' | 'to_be_paid';

/** The search fields of All orders (getOrders), as the screen sends them. */
export type OrderSearchFields = Pick<OrdersRequest, 'orderNumber' | 'member' | 'product' | 'status'>;
/** The search fields of All commissions (getCommisions). */
export type CommissionSearchFields = Pick<CommissionsRequest, 'member' | 'status'>;

const searched = (search: object | undefined): search is object =>
  search !== undefined && Object.values(search).some((value) => value !== undefined);

/**
 * A list's key: the list's own without a search (the key the early script's first page fills),
 * with the search after it otherwise, so that invalidating the list reaches its searches too.
 */
const listKey = <K extends readonly unknown[]>(key: K, search: object | undefined) =>
  searched(search) ? ([...key, search] as const) : key;

export const ordersQuery = (call: Call, list: OrderList, search?: OrderSearchFields) =>
  infiniteQueryOptions({
    queryKey: listKey(queryKeys.orders.list(list), search),
    queryFn: ({ pageParam, signal }): Promise<OrderPageData> => {
      const page = { cursor: pageParam, limit: SALES_PAGE_SIZE };
      if (list === 'all' && searched(search)) return call('getOrders', { ...page, type: 'all', ...search }, { signal });
      switch (list) {
        case 'not_ordered':
          return call('getOrdersNotOrdered', page, { signal });
        case 'not_shipped':
          return call('getOrdersNotShipped', page, { signal });
        case 'not_fulfilled':
          return call('getOrdersNotFufilled', page, { signal });
        default:
          return call('getOrders', { ...page, type: 'all' }, { signal });
      }
    },
    ...cursorPaging,
  });

export const commissionsQuery = (call: Call, list: CommissionListName, search?: CommissionSearchFields) =>
  infiniteQueryOptions({
    queryKey: listKey(queryKeys.payouts.list(list), search),
    queryFn: ({ pageParam, signal }): Promise<CommissionPageData> => {
      const page = { cursor: pageParam, limit: SALES_PAGE_SIZE };
      if (list === 'all' && searched(search)) return call('getCommisions', { ...page, ...search }, { signal });
      if (list === 'to_stripe') return call('getCommisionsToStripe', page, { signal });
      if (list === 'to_be_paid') return call('getCommisionsToBePayed', page, { signal });
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

export function useOrders(list: OrderList, search?: OrderSearchFields) {
  const { call } = useAuth();
  return useInfiniteQuery(ordersQuery(call, list, search));
}

export function useCommissions(list: CommissionListName, search?: CommissionSearchFields) {
  const { call } = useAuth();
  return useInfiniteQuery(commissionsQuery(call, list, search));
}

export function useTopEarners() {
  const { call } = useAuth();
  return useInfiniteQuery(topEarnersQuery(call));
}

/** Pages of debts read at most: 500 members each (debts are few; a refund after payout makes one). */
const MAX_DEBT_PAGES = 10;

/**
 * What members still owe after clawbacks, every page: the Payouts screen lists them and the batch
 * confirmations net them from what each member's commissions carry.
 */
export function useMemberDebts() {
  const { call } = useAuth();
  return useQuery({
    queryKey: queryKeys.payouts.debts(),
    queryFn: async ({ signal }): Promise<MemberDebt[]> => {
      const debts: MemberDebt[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_DEBT_PAGES; page++) {
        const answer = await call('getMemberDebts', { limit: 500, ...(cursor ? { cursor } : {}) }, { signal });
        debts.push(...answer.items);
        cursor = answer.nextCursor ?? undefined;
        if (!cursor) break;
      }
      return debts.sort((a, b) => a.member.email.localeCompare(b.member.email));
    },
  });
}

/** After an order changes: every order list and its counters, and the commissions it may have made. */
export async function reloadSales(client: QueryClient): Promise<void> {
  await Promise.all([
    client.invalidateQueries({ queryKey: queryKeys.orders.all }),
    client.invalidateQueries({ queryKey: queryKeys.payouts.all }),
  ]);
}
