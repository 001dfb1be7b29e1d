import { lazyWithPreload } from '@portal/shared/ui/hooks/preload';

/**
 * The detail screen (carousel, sanitizer) is its own chunk, loaded when first opened, or earlier:
 * when the browser is idle after the list shows, or when a card is hovered or focused.
 */
export const LazyProductDetailScreen = lazyWithPreload(() =>
  import('./ProductDetailScreen').then((module) => module.ProductDetailScreen),
);

/**
 * My Account (the set-up links, the commission totals, the withdrawal and the mail choices): a
 * chunk of its own, so that the home's first script carries the product list and nothing else
 * (issue 26); the page opened at /my_account loads it from the first moment (the early script's
 * preload and preloadLandingScreen below).
 */
export const LazyMyAccountScreen = lazyWithPreload(() =>
  import('./MyAccountScreen').then((module) => module.MyAccountScreen),
);

/**
 * The payout screens (the payout account form with its schema, the card entry): one chunk each,
 * loaded when opened, so the first screen's bundle does not carry them. Stripe.js is a further
 * chunk of the card entry, loaded only with a real publishable key.
 */
export const LazyCreatePayoutAccountScreen = lazyWithPreload(() =>
  import('./payouts/CreatePayoutAccountScreen').then((module) => module.CreatePayoutAccountScreen),
);
export const LazyPayoutAccountScreen = lazyWithPreload(() =>
  import('./payouts/PayoutAccountScreen').then((module) => module.PayoutAccountScreen),
);
export const LazyPayoutMethodsScreen = lazyWithPreload(() =>
  import('./payouts/PayoutMethodsScreen').then((module) => module.PayoutMethodsScreen),
);
export const LazyAddPayoutMethodScreen = lazyWithPreload(() =>
  import('./payouts/PayoutMethodsScreen').then((module) => module.AddPayoutMethodScreen),
);

/** The customer's shop page (a share link's target): its own chunk, with the checkout. */
export const LazyShopScreen = lazyWithPreload(() => import('./shop/ShopScreen').then((module) => module.ShopScreen));

/** The customer's order page (the link in their receipt and shipping mails): its own chunk. */
export const LazyTrackOrderScreen = lazyWithPreload(() =>
  import('./track/TrackOrderScreen').then((module) => module.TrackOrderScreen),
);

/**
 * The screens with forms checked by the API's zod schemas (log in, sign up, the e-mail link, My
 * Profile with its address search): chunks of their own, so that zod (about 90 KiB) is not in the
 * first script of the pages that have no such form; the API client loads it with the first call
 * (shared/src/api/client.ts).
 */
export const LazyLoginScreen = lazyWithPreload(() =>
  import('@portal/shared/ui/components/LoginScreen').then((module) => module.LoginScreen),
);
export const LazySignupScreen = lazyWithPreload(() =>
  import('@portal/shared/ui/components/SignupScreen').then((module) => module.SignupScreen),
);
export const LazyVerifyEmailScreen = lazyWithPreload(() =>
  import('./VerifyEmailScreen').then((module) => module.VerifyEmailScreen),
);
export const LazyMyProfileScreen = lazyWithPreload(() =>
  import('./MyProfileScreen').then((module) => module.MyProfileScreen),
);

/** A forgotten password: asking for the link, and the link's page (issue 28). */
export const LazyForgotPasswordScreen = lazyWithPreload(() =>
  import('./ForgotPasswordScreen').then((module) => module.ForgotPasswordScreen),
);
export const LazyResetPasswordScreen = lazyWithPreload(() =>
  import('./ResetPasswordScreen').then((module) => module.ResetPasswordScreen),
);

/**
 * The lazy screen of the address the page was opened at, loading from the first moment (main.tsx
 * calls it before the first render), so its chunk arrives with the page's other requests. Settles
 * when the chunk has loaded or failed; undefined for a screen in the entry.
 */
export function preloadLandingScreen(pathname: string): Promise<unknown> | undefined {
  const screen =
    {
      '/login': LazyLoginScreen,
      '/signup': LazySignupScreen,
      '/verify_email': LazyVerifyEmailScreen,
      '/forgot_password': LazyForgotPasswordScreen,
      '/reset_password': LazyResetPasswordScreen,
      '/member_product_detail': LazyProductDetailScreen,
      '/my_account': LazyMyAccountScreen,
      '/my_account/my_profile': LazyMyProfileScreen,
      '/my_account/payout_account': LazyPayoutAccountScreen,
      '/my_account/create_payout_account': LazyCreatePayoutAccountScreen,
      '/my_account/payout_methods': LazyPayoutMethodsScreen,
      '/my_account/add_payout_method': LazyAddPayoutMethodScreen,
      '/track_order': LazyTrackOrderScreen,
    }[pathname.replace(/\/+$/, '') || '/'] ?? (pathname.startsWith('/shop/') ? LazyShopScreen : undefined);
  // A failed load is tried again by the screen's own render.
  return screen?.preload().catch(() => undefined);
}

/** Loads every lazy screen's chunk (the tests do, so that no test waits on a first import). */
export async function preloadLazyScreens(): Promise<void> {
  await Promise.all(
    [
      LazyProductDetailScreen,
      LazyMyAccountScreen,
      LazyCreatePayoutAccountScreen,
      LazyPayoutAccountScreen,
      LazyPayoutMethodsScreen,
      LazyAddPayoutMethodScreen,
      LazyShopScreen,
      LazyTrackOrderScreen,
      LazyLoginScreen,
      LazySignupScreen,
      LazyVerifyEmailScreen,
      LazyMyProfileScreen,
      LazyForgotPasswordScreen,
      LazyResetPasswordScreen,
    ].map((screen) => screen.preload()),
  );
}
