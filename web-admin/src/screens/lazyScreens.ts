import { lazyWithPreload } from '@portal/shared/ui/hooks/preload';

/**
 * The detail screen (carousel, sanitizer) is its own chunk, loaded when first opened, or earlier:
 * when the browser is idle after the review list shows, or when a card is hovered or focused.
 */
export const LazyProductImportDetailScreen = lazyWithPreload(() =>
  import('./ProductImportDetailScreen').then((module) => module.ProductImportDetailScreen),
);
