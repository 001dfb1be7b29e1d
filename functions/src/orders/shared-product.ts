import { displayNameOf } from '@portal/shared/api/account';
import type { SharedProduct } from '@portal/shared/api/sales';
import type * as z from 'zod';
import { DomainError } from '../errors';
import { PRODUCT_WITHDRAWN } from '../products/moderation';
import { memberView, toDetail } from '../products/present';
import type { ProductContent, ProductRecord, ProductRepository } from '../products/product-store';
import type { SalesStore } from './sales-store';

export const NO_LONGER_AVAILABLE = 'This product is no longer available.';

/**
 * What a share link shows of a product: the values members see; a product unknown, banned, not
 * approved or withdrawn is the share page's 404 in words (the visit count answers the same).
 */
export function shareable(product: ProductRecord | undefined): { product: ProductRecord; content: ProductContent } {
  const content = product && memberView(product);
  if (product?.status === 'withdrawn') throw new DomainError('not-found', PRODUCT_WITHDRAWN);
  if (!product || !content) throw new DomainError('not-found', NO_LONGER_AVAILABLE);
  return { product, content };
}

/**
 * The customer's page on a share link: the product as members see it, its unit price in cents,
 * and whether the code names a member (an unknown code still sells, with no commission).
 */
export async function sharedProduct(
  deps: { products: Pick<ProductRepository, 'get'>; sales: Pick<SalesStore, 'memberOfShareCode'> },
  id: string,
  ref: string | undefined,
): Promise<z.infer<typeof SharedProduct>> {
  const [found, member] = await Promise.all([
    deps.products.get(id),
    ref ? deps.sales.memberOfShareCode(ref.trim().toUpperCase()) : Promise.resolve(undefined),
  ]);
  const { product, content } = shareable(found);
  return {
    product: toDetail(product.id, content),
    unitAmountCents: content.dropshipping_price_us_cents,
    refKnown: member !== undefined,
    // The member's display name (default "Maya P."), never their e-mail address.
    recommendedBy: member?.names ? displayNameOf(member.names) : null,
  };
}
