import { lazyWithPreload } from '@portal/shared/ui/hooks/preload';
import { LazyProductImportDetailScreen } from './lazyScreens';

/**
 * Every admin screen is a chunk of its own (issue 26): the page loads the shell, React, the router
 * and TanStack Query, and then only the screen its address opens (preloadLandingScreen below, and
 * the early script's preload of the same chunks: earlyScreens.ts), not the other screens' code and
 * styles. A link's target loads when it is opened (or hovered: the shell's links preload nothing;
 * the admin's screens are a few kilobytes each).
 */
export const LazyAdminHomeScreen = lazyWithPreload(() =>
  import('./AdminHomeScreen').then((module) => module.AdminHomeScreen),
);
export const LazyProductImportScreen = lazyWithPreload(() =>
  import('./ProductImportScreen').then((module) => module.ProductImportScreen),
);
export const LazyCatalogueScreen = lazyWithPreload(() =>
  import('../catalogue/CatalogueScreen').then((module) => module.CatalogueScreen),
);
export const LazyOrdersScreen = lazyWithPreload(() => import('./OrdersScreen').then((module) => module.OrdersScreen));
export const LazyOrderListScreen = lazyWithPreload(() =>
  import('./OrderListScreen').then((module) => module.OrderListScreen),
);
export const LazyPayoutsScreen = lazyWithPreload(() =>
  import('./PayoutsScreen').then((module) => module.PayoutsScreen),
);
export const LazyCommissionActionScreen = lazyWithPreload(() =>
  import('./CommissionActionScreen').then((module) => module.CommissionActionScreen),
);
export const LazyTopEarnersScreen = lazyWithPreload(() =>
  import('./TopEarnersScreen').then((module) => module.TopEarnersScreen),
);
export const LazyReconciliationScreen = lazyWithPreload(() =>
  import('../reconciliation/ReconciliationScreen').then((module) => module.ReconciliationScreen),
);
export const LazyHeldCommissionsScreen = lazyWithPreload(() =>
  import('./HeldCommissionsScreen').then((module) => module.HeldCommissionsScreen),
);
export const LazyDiscountCodesScreen = lazyWithPreload(() =>
  import('../codes/DiscountCodesScreen').then((module) => module.DiscountCodesScreen),
);
export const LazyCommissionRulesScreen = lazyWithPreload(() =>
  import('../rules/CommissionRulesScreen').then((module) => module.CommissionRulesScreen),
);
export const LazyLinkStatisticsScreen = lazyWithPreload(() =>
  import('./LinkStatisticsScreen').then((module) => module.LinkStatisticsScreen),
);

/** The lazy screen of each address below /admin, as AdminApp routes them. */
const SCREEN_OF_PATH: Record<string, { preload: () => Promise<unknown> }> = {
  '/': LazyAdminHomeScreen,
  '/product_import': LazyProductImportScreen,
  '/product_import_detail': LazyProductImportDetailScreen,
  '/catalogue': LazyCatalogueScreen,
  '/orders': LazyOrdersScreen,
  '/orders/not_ordered_yet': LazyOrderListScreen,
  '/orders/not_shipped_yet': LazyOrderListScreen,
  '/orders/not_fufilled_yet': LazyOrderListScreen,
  '/payouts': LazyPayoutsScreen,
  '/payouts/to_stripe': LazyCommissionActionScreen,
  '/payouts/to_be_payed': LazyCommissionActionScreen,
  '/payouts/top_earners': LazyTopEarnersScreen,
  '/payouts/held': LazyHeldCommissionsScreen,
  '/reconciliation': LazyReconciliationScreen,
  '/discount_codes': LazyDiscountCodesScreen,
  '/rules': LazyCommissionRulesScreen,
  '/link_statistics': LazyLinkStatisticsScreen,
};

/**
 * The lazy screen of the address the page was opened at (`/admin/orders`…), loading from the first
 * moment (main.tsx calls it before the first render), so its chunk arrives with the page's other
 * requests rather than after the first render has asked for it. Settles when the chunk has loaded
 * or failed; undefined for an address with no screen of its own.
 */
export function preloadLandingScreen(pathname: string): Promise<unknown> | undefined {
  const below = pathname.replace(/^\/admin(?=\/|$)/, '').replace(/\/+$/, '') || '/';
  // A failed load is tried again by the screen's own render.
  return SCREEN_OF_PATH[below]?.preload().catch(() => undefined);
}

/** Loads every screen's chunk (the tests do, so that no test waits on a first import). */
export async function preloadLazyScreens(): Promise<void> {
  await Promise.all(Object.values(SCREEN_OF_PATH).map((screen) => screen.preload()));
}
