import { lazyWithPreload } from '@portal/shared/ui/preload';

/**
 * The detail screen (carousel, sanitizer) is its own chunk, loaded when first opened, or earlier:
 * when the browser is idle after the list shows, or when a card is hovered or focused.
 */
export const LazyProductDetailScreen = lazyWithPreload(() =>
  import('./ProductDetailScreen').then((module) => module.ProductDetailScreen),
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
