import type { QueryClient } from '@tanstack/react-query';
import { matchPath } from 'react-router-dom';
import { approvedProductQuery, approvedProductsQuery } from '@portal/shared/query/catalogue';
import type { AuthStore } from '@portal/shared/ui/hooks/AuthProvider';
import { SHOP_ROUTE } from './MemberApp';
import { sharedProductQuery } from './screens/shop/sharedProductQuery';

/**
 * The data of the screen the address opens, asked for as the script starts (issue 16), through
 * the same query (key, call, options) the screen uses, so the screen finds it in the cache or in
 * flight. A screen that needs the session asks through the auth store's `call`: with no access
 * token yet it joins the page's one checkAuth (single-flight, the same one the shell waits on) and
 * sends its request as soon as that answers, instead of after the shell has rendered. Without a
 * session the call fails, nothing is shown from it, and the screen (or the login) asks again.
 * The shop page's read is public and goes at once, beside its screen's chunk.
 */
export function startLandingData(
  location: { pathname: string; search: string },
  store: AuthStore,
  client: QueryClient,
): void {
  const path = location.pathname.replace(/\/+$/, '') || '/';
  const params = new URLSearchParams(location.search);
  if (path === '/') {
    void client.prefetchInfiniteQuery(approvedProductsQuery(store.call));
    return;
  }
  if (path === '/member_product_detail') {
    const id = params.get('id')?.trim() ?? '';
    if (id) void client.prefetchQuery(approvedProductQuery(store.call, id));
    return;
  }
  const shop = matchPath(`/${SHOP_ROUTE}`, decodedPath(location.pathname));
  if (shop?.params.productId) {
    void client.prefetchQuery(sharedProductQuery(store.callPublic, shop.params.productId, params.get('ref')));
  }
}

/** The path with each segment decoded, as the router gives the screen its params. */
function decodedPath(pathname: string): string {
  try {
    return pathname
      .split('/')
      .map((segment) => decodeURIComponent(segment).replace(/\//g, '%2F'))
      .join('/');
  } catch {
    return pathname;
  }
}
