import type { CheckoutCancelCounts } from '@portal/shared/domain/open-checkouts';

/**
 * What Product Import and its detail screen know of each other: the detail's address and what the
 * detail hands back on its way back to the list. A module of its own, so that neither screen
 * imports the other (the detail is a lazy chunk of the list: lazyScreens.ts).
 */

/** Product Import's address, where the detail goes back to. */
export const PRODUCT_IMPORT_PATH = '/product_import';

export const importDetailPath = (id: string) => `/product_import_detail?id=${encodeURIComponent(id)}`;

/** What the detail screen hands back after an approval or a ban (router state). */
export interface ImportScreenState {
  notice?: string;
  /** After a ban: the product whose unpaid checkouts are being cancelled, and the ban's counts (issue 38). */
  cancels?: { productId: string; started: CheckoutCancelCounts };
}
