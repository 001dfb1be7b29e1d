import type { CheckedDiscountCode } from '@portal/shared/api/checkout';
import { DomainError } from '../errors';
import type { ProductRepository } from '../products/product-store';
import { priceWithCode, type CodeDeps } from './codes';

/**
 * The share page's and the checkout's Apply: a product's price for a quantity with a code, as the
 * checkout will charge it (payments/checkout.ts prices the intent with the same priceWithCode).
 * Reads the product and the code; writes nothing.
 */
export async function priceOfCheckoutWithCode(
  deps: Pick<CodeDeps, 'codes' | 'now'> & { products: Pick<ProductRepository, 'get'> },
  ask: { id: string; qty: number; code: string },
): Promise<CheckedDiscountCode> {
  const product = await deps.products.get(ask.id);
  if (!product?.approved || product.status === 'banned' || product.status === 'withdrawn') {
    throw new DomainError('not-found', 'This product is no longer available.', {
      fields: { id: 'This product is no longer available.' },
    });
  }
  const listCents = product.approved.dropshipping_price_us_cents * ask.qty;
  const price = await priceWithCode(deps, ask.code, listCents);
  return {
    code: price.code,
    discount: price.discount,
    listCents,
    discountCents: price.discountCents,
    totalCents: price.paidCents,
  };
}
