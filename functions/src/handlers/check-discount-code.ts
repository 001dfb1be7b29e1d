import { checkDiscountCode } from '@portal/shared/api/calls/check-discount-code';
import { discountCodeReads, products, publicApiHandler } from '../composition';
import { priceOfCheckoutWithCode } from '../codes/checkout-price';

/** Public: a product's price with a discount code, before paying; reads only (codes/checkout-price.ts). */
export const handler = publicApiHandler(checkDiscountCode, async ({ body }) =>
  priceOfCheckoutWithCode({ ...discountCodeReads, products }, body),
);
