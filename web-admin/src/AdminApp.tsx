import { Route, Routes } from 'react-router-dom';
import { AppShell, type MenuItem } from '@portal/shared/ui/components/AppShell';
import type { AuthView } from '@portal/shared/ui/hooks/AuthProvider';
import { BoxIcon, ChartIcon, CheckIcon, ReceiptIcon, UploadIcon, WalletIcon } from '@portal/shared/ui/components/icons';
import { LazyScreen } from '@portal/shared/ui/components/LoadBoundary';
import { NotFoundScreen } from '@portal/shared/ui/components/NotFoundScreen';
import { LazyProductImportDetailScreen } from './screens/lazyScreens';
import {
  LazyAdminHomeScreen,
  LazyCatalogueScreen,
  LazyCommissionActionScreen,
  LazyOrderListScreen,
  LazyOrdersScreen,
  LazyPayoutsScreen,
  LazyProductImportScreen,
  LazyTopEarnersScreen,
  LazyReconciliationScreen,
  LazyHeldCommissionsScreen,
  LazyDiscountCodesScreen,
  LazyCommissionRulesScreen,
  LazyLinkStatisticsScreen,
} from './screens/routeScreens';

/** The admin-mode menu; routes are relative to the app's base, /admin. */
export function adminMenu(auth: AuthView): MenuItem[] {
  if (!auth.isAdmin) return [{ to: '/', label: 'Member app', document: true, icon: <BoxIcon /> }];
  return [
    { to: '/product_import', label: 'Product Import', icon: <UploadIcon /> },
    { to: '/catalogue', label: 'Catalogue', icon: <BoxIcon /> },
    { to: '/orders', label: 'Orders', icon: <ReceiptIcon /> },
    { to: '/payouts', label: 'Payouts', icon: <WalletIcon /> },
    { to: '/rules', label: 'Commission rules', icon: <WalletIcon /> },
    { to: '/discount_codes', label: 'Discount codes', icon: <ReceiptIcon /> },
    { to: '/link_statistics', label: 'Link statistics', icon: <ChartIcon /> },
    { to: '/reconciliation', label: 'Reconciliation', icon: <CheckIcon /> },
  ];
}

/** The admin app, served at '/admin/' (router basename '/admin'). It has no /login of its own. */
export function AdminApp() {
  return (
    <Routes>
      <Route element={<AppShell app="admin" menu={adminMenu} />}>
        <Route index element={<LazyScreen screen={LazyAdminHomeScreen} />} />
        <Route path="product_import" element={<LazyScreen screen={LazyProductImportScreen} />} />
        <Route
          path="product_import_detail"
          element={<LazyScreen screen={LazyProductImportDetailScreen} loadingLabel="Loading the product…" />}
        />
        <Route path="catalogue" element={<LazyScreen screen={LazyCatalogueScreen} />} />
        <Route path="orders" element={<LazyScreen screen={LazyOrdersScreen} />} />
        {/* The work lists, spelled as the spec spells them. */}
        <Route
          path="orders/not_ordered_yet"
          element={<LazyScreen key="not_ordered" screen={LazyOrderListScreen} props={{ list: 'not_ordered' }} />}
        />
        <Route
          path="orders/not_shipped_yet"
          element={<LazyScreen key="not_shipped" screen={LazyOrderListScreen} props={{ list: 'not_shipped' }} />}
        />
        <Route
          path="orders/not_fufilled_yet"
          element={<LazyScreen key="not_fulfilled" screen={LazyOrderListScreen} props={{ list: 'not_fulfilled' }} />}
        />
        <Route path="payouts" element={<LazyScreen screen={LazyPayoutsScreen} />} />
        <Route
          path="payouts/to_stripe"
          element={<LazyScreen key="to_stripe" screen={LazyCommissionActionScreen} props={{ list: 'to_stripe' }} />}
        />
        <Route
          path="payouts/to_be_payed"
          element={<LazyScreen key="to_be_paid" screen={LazyCommissionActionScreen} props={{ list: 'to_be_paid' }} />}
        />
        <Route path="payouts/top_earners" element={<LazyScreen screen={LazyTopEarnersScreen} />} />
        <Route path="reconciliation" element={<LazyScreen screen={LazyReconciliationScreen} />} />
        <Route path="payouts/held" element={<LazyScreen screen={LazyHeldCommissionsScreen} />} />
        <Route path="discount_codes" element={<LazyScreen screen={LazyDiscountCodesScreen} />} />
        <Route path="rules" element={<LazyScreen screen={LazyCommissionRulesScreen} />} />
        <Route path="link_statistics" element={<LazyScreen screen={LazyLinkStatisticsScreen} />} />
        <Route path="*" element={<NotFoundScreen homeLabel="Go to the admin home" />} />
      </Route>
    </Routes>
  );
}
