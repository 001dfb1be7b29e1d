import type { ImportedProduct, ImportedProductCard, ProductCard, ProductDetail } from '@portal/shared/api/products';
import { formatCents, youMakeCents } from '@portal/shared/domain/money';
import type { ProductContent, ProductRecord } from './product-store';

/** Cards per page of a product list when the caller does not ask for a number. */
export const DEFAULT_PAGE_SIZE = 24;

/** Dollars with two decimals appear only here, at the API edge; everything inside is cents. */
export function toCard(id: string, content: ProductContent): ProductCard {
  return {
    id,
    product_name: content.product_name,
    brand: content.brand,
    msrp_us: formatCents(content.msrp_us_cents),
    dropshipping_price_us: formatCents(content.dropshipping_price_us_cents),
    you_make: formatCents(youMakeCents(content.dropshipping_price_us_cents)),
    image: content.product_images[0] ?? content.additional_product_images[0] ?? null,
  };
}

export function toDetail(id: string, content: ProductContent): ProductDetail {
  return {
    ...toCard(id, content),
    images: [...content.product_images, ...content.additional_product_images],
    html_description: content.html_description,
  };
}

/** Members see the approved values, never a newer imported version still in review. */
export function memberView(product: ProductRecord): ProductContent | undefined {
  return product.status === 'banned' ? undefined : product.approved;
}

function reviewFacts(product: ProductRecord) {
  return {
    spu_no: product.current.spu_no,
    status: product.status,
    hasApprovedVersion: product.approved !== undefined && product.status !== 'banned',
    updatedAt: product.updatedAt,
  };
}

/** The review list's card: small, whatever the size of the description. */
export function toImportedCard(product: ProductRecord): ImportedProductCard {
  return { ...toCard(product.id, product.current), ...reviewFacts(product) };
}

export function toImported(product: ProductRecord): ImportedProduct {
  return { ...toDetail(product.id, product.current), ...reviewFacts(product), url: product.current.url };
}
