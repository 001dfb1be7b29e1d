import type { QueryClient } from '@tanstack/react-query';
import { reviewListQuery } from '@portal/shared/query/catalogue';
import type { AuthStore } from '@portal/shared/ui/hooks/AuthProvider';
import { ordersQuery } from './sales/queries';

/**
 * The data of the screen the address opens (Product Import's review list, Orders' first page),
 * asked for as the script starts (issue 16), through the same query the screen uses. With no
 * access token yet, the auth store's `call` joins the page's one checkAuth (single-flight, the one
 * the shell waits on) and sends the request as soon as it answers, rather than after the shell
 * has rendered. Without a session, or for a member who is no admin, the call fails and nothing is
 * shown from it; the shell says why as before.
 */
export function startLandingData(location: { pathname: string }, store: AuthStore, client: QueryClient): void {
  const path = location.pathname.replace(/\/+$/, '');
  if (path === '/admin/product_import') void client.prefetchInfiniteQuery(reviewListQuery(store.call));
  else if (path === '/admin/orders') void client.prefetchInfiniteQuery(ordersQuery(store.call, 'all'));
}
