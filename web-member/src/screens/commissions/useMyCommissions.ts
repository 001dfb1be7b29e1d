import { useInfiniteQuery } from '@tanstack/react-query';
import type { CommissionPage } from '@portal/shared/api/sales';
import { useAuth } from '@portal/shared/ui/hooks/AuthProvider';

/** How many commissions one request brings (the table pages through them on the screen). */
export const COMMISSIONS_PER_REQUEST = 100;

/** Two-decimal dollars from the API as integer cents, for formatMoney. */
export const centsOf = (dollars: number): number => Math.round(dollars * 100);

/**
 * The signed-in member's own commissions (getCommisionsByUser with their id), newest first, a
 * page of COMMISSIONS_PER_REQUEST at a time; every page carries the totals of the whole set.
 */
export function useMyCommissions() {
  const { call, userProfile } = useAuth();
  const id = userProfile?.id ?? '';
  return useInfiniteQuery({
    queryKey: ['commissions', 'byUser', id],
    queryFn: ({ pageParam }): Promise<CommissionPage> =>
      call('getCommisionsByUser', {
        id,
        limit: COMMISSIONS_PER_REQUEST,
        ...(pageParam ? { cursor: pageParam } : {}),
      }),
    initialPageParam: '',
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    enabled: Boolean(id),
  });
}
