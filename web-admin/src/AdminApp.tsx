import { Route, Routes } from 'react-router-dom';
import { AppShell, type MenuItem } from '@portal/shared/ui/components/AppShell';
import type { AuthView } from '@portal/shared/ui/hooks/AuthProvider';
import { BoxIcon, CheckIcon, ReceiptIcon, UploadIcon, WalletIcon } from '@portal/shared/ui/components/icons';
import { LazyScreen } from '@portal/shared/ui/components/LoadBoundary';
import { NotFoundScreen } from '@portal/shared/ui/components/NotFoundScreen';
import { AdminHomeScreen } from './screens/AdminHomeScreen';
import { LazyProductImportDetailScreen } from './screens/lazyScreens';
import { CommissionActionScreen } from './screens/CommissionActionScreen';
import { OrderListScreen } from './screens/OrderListScreen';
import { OrdersScreen } from './screens/OrdersScreen';
import { PayoutsScreen } from './screens/PayoutsScreen';
import { ProductImportScreen } from './screens/ProductImportScreen';
import { TopEarnersScreen } from './screens/TopEarnersScreen';
import { CatalogueScreen } from './catalogue/CatalogueScreen';
import { ReconciliationScreen } from './reconciliation/ReconciliationScreen';
import { HeldCommissionsScreen } from './screens/HeldCommissionsScreen';

/** The admin-mode menu; routes are relative to the app's base, /admin. */
export function adminMenu(auth: AuthView): MenuItem[] {
  if (!auth.isAdmin) return [{ to: '/', label: 'Member app', document: true, icon: <BoxIcon /> }];
  return [
    { to: '/product_import', label: 'Product Import', icon: <UploadIcon /> },
    { to: '/catalogue', label: 'Catalogue', icon: <BoxIcon /> },
    { to: '/orders', label: 'Orders', icon: <ReceiptIcon /> },
    { to: '/payouts', label: 'Payouts', icon: <WalletIcon /> },
    { to: '/reconciliation', label: 'Reconciliation', icon: <CheckIcon /> },
  ];
}

/** The admin app, served at '/admin/' (router basename '/admin'). It has no /login of its own. */
export function AdminApp() {
  return (
    <Routes>
      <Route element={<AppShell app="admin" menu={adminMenu} />}>
        <Route index element={<AdminHomeScreen />} />
        <Route path="product_import" element={<ProductImportScreen />} />
        <Route
          path="product_import_detail"
          element={<LazyScreen screen={LazyProductImportDetailScreen} loadingLabel="Loading the product…" />}
        />
        <Route path="catalogue" element={<CatalogueScreen />} />
        <Route path="orders" element={<OrdersScreen />} />
        {/* The work lists, spelled as the spec spells them. */}
        <Route path="orders/not_ordered_yet" element={<OrderListScreen key="not_ordered" list="not_ordered" />} />
        <Route path="orders/not_shipped_yet" element={<OrderListScreen key="not_shipped" list="not_shipped" />} />
        <Route path="orders/not_fufilled_yet" element={<OrderListScreen key="not_fufilled" list="not_fufilled" />} />
        <Route path="payouts" element={<PayoutsScreen />} />
        <Route path="payouts/to_stripe" element={<CommissionActionScreen key="to_stripe" list="to_stripe" />} />
        <Route path="payouts/to_be_payed" element={<CommissionActionScreen key="to_be_payed" list="to_be_payed" />} />
        <Route path="payouts/top_earners" element={<TopEarnersScreen />} />
        <Route path="reconciliation" element={<ReconciliationScreen />} />
        <Route path="payouts/held" element={<HeldCommissionsScreen />} />
        <Route path="*" element={<NotFoundScreen homeLabel="Go to the admin home" />} />
      </Route>
    </Routes>
  );
}
