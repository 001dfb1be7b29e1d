import { Navigate, Route, Routes } from 'react-router-dom';
import { AppShell, type MenuItem } from '@portal/shared/ui/components/AppShell';
import type { AuthView } from '@portal/shared/ui/hooks/AuthProvider';
import { BoxIcon, WalletIcon } from '@portal/shared/ui/components/icons';
import { LazyScreen } from '@portal/shared/ui/components/LoadBoundary';
import { NotFoundScreen } from '@portal/shared/ui/components/NotFoundScreen';
import {
  LazyAddPayoutMethodScreen,
  LazyCreatePayoutAccountScreen,
  LazyLoginScreen,
  LazyMyAccountScreen,
  LazyMyProfileScreen,
  LazyPayoutAccountScreen,
  LazyPayoutMethodsScreen,
  LazyProductDetailScreen,
  LazyShopScreen,
  LazySignupScreen,
  LazyTrackOrderScreen,
  LazyVerifyEmailScreen,
  LazyForgotPasswordScreen,
  LazyResetPasswordScreen,
} from './screens/lazyScreens';
import { ProductListScreen } from './screens/ProductListScreen';

/** Where being logged out is normal: everywhere else a logged-out person is sent to /login. */
export const PUBLIC_PATHS = ['/login', '/signup', '/verify_email', '/forgot_password', '/reset_password'] as const;
/** Public paths a logged-in member stays on: the e-mail link verifies with or without a session. */
export const OPEN_PATHS = ['/verify_email', '/reset_password'] as const;
/**
 * The customer's shop page (`/shop/<productId>?ref=CODE`): public for everyone, logged in or not.
 * It has its own store layout outside the AppShell (no session check, no menu), so it is routed
 * before the shell rather than listed in PUBLIC_PATHS (whose entries are exact paths).
 */
export const SHOP_ROUTE = 'shop/:productId';
/** The customer's order page (`/track_order#<token>`): public, outside the AppShell like the shop page. */
export const TRACK_ORDER_ROUTE = 'track_order';

export function memberMenu(auth: AuthView): MenuItem[] {
  return [
    { to: '/my_account', label: 'My Account', attention: auth.needsAttention, icon: <WalletIcon /> },
    { to: '/', label: 'Product List', end: true, icon: <BoxIcon /> },
  ];
}

/** The member app, served at '/'. */
export function MemberApp() {
  return (
    <Routes>
      <Route path={SHOP_ROUTE} element={<LazyScreen screen={LazyShopScreen} loadingLabel="Loading the product…" />} />
      <Route
        path={TRACK_ORDER_ROUTE}
        element={<LazyScreen screen={LazyTrackOrderScreen} loadingLabel="Loading your order…" />}
      />
      <Route element={<AppShell app="member" menu={memberMenu} publicPaths={PUBLIC_PATHS} openPaths={OPEN_PATHS} />}>
        <Route index element={<ProductListScreen />} />
        <Route path="member" element={<Navigate to="/" replace />} />
        <Route
          path="member_product_detail"
          element={<LazyScreen screen={LazyProductDetailScreen} loadingLabel="Loading the product…" />}
        />
        <Route path="my_account" element={<LazyScreen screen={LazyMyAccountScreen} />} />
        <Route path="my_account/payout_account" element={<LazyScreen screen={LazyPayoutAccountScreen} />} />
        <Route
          path="my_account/create_payout_account"
          element={<LazyScreen screen={LazyCreatePayoutAccountScreen} />}
        />
        <Route path="my_account/payout_methods" element={<LazyScreen screen={LazyPayoutMethodsScreen} />} />
        <Route path="my_account/add_payout_method" element={<LazyScreen screen={LazyAddPayoutMethodScreen} />} />
        <Route path="my_account/my_profile" element={<LazyScreen screen={LazyMyProfileScreen} />} />
        <Route path="verify_email" element={<LazyScreen screen={LazyVerifyEmailScreen} />} />
        <Route path="login" element={<LazyScreen screen={LazyLoginScreen} />} />
        <Route path="signup" element={<LazyScreen screen={LazySignupScreen} />} />
        <Route path="forgot_password" element={<LazyScreen screen={LazyForgotPasswordScreen} />} />
        <Route path="reset_password" element={<LazyScreen screen={LazyResetPasswordScreen} />} />
        <Route path="*" element={<NotFoundScreen />} />
      </Route>
    </Routes>
  );
}
