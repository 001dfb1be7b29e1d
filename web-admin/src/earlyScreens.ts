import { REVIEW_PAGE_SIZE } from '@portal/shared/query/catalogue';
import { call, type EarlyScreens } from '@portal/shared/ui/early/pageScript';
import { SALES_PAGE_SIZE } from './sales/pageSize';

/**
 * The admin app's early script (issue 16; shared/src/ui/early/pageScript.ts): on Orders the session
 * check and then the first page of all orders, on Product Import the first page of the review list
 * (and its first picture preloaded), on any other admin screen the session check; as the app's
 * own first calls make them (landingData.ts, the screens' queries). Built by the app's build into
 * a script of its own that the page loads from its head (shared/src/build/early-script.ts).
 */
export const adminEarlyScreens: EarlyScreens = (path) => {
  if (path === '/admin/orders') {
    // Orders' first page, all orders (sales/queries.ts, ordersQuery).
    return { afterSession: call('getOrders', { limit: SALES_PAGE_SIZE, type: 'all' }), screen: 'orders' };
  }
  if (path === '/admin/product_import') {
    // The review list's first page (shared/src/query/catalogue.ts, reviewListQuery).
    return {
      afterSession: call('getUnApprovedProducts', { limit: REVIEW_PAGE_SIZE }, (page) => page.items[0]?.image),
      screen: 'import',
    };
  }
  if (path === '/admin') return { sessionOnly: true, screen: 'home' };
  if (path.startsWith('/admin/')) return { sessionOnly: true };
  return undefined;
};
