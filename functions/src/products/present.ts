import type {
  ImportedProduct,
  ImportedProductCard,
  ProductCard,
  ProductChange,
  ProductDetail,
} from '@portal/shared/api/products';
import { formatCents, youMakeCents } from '@portal/shared/domain/money';
import { membersSee } from '@portal/shared/domain/product-status';
import { pictureSource, type PictureSource } from '@portal/shared/domain/pictures';
import type { ProductContent, ProductRecord } from './product-store';
import { rewriteDescriptionPictures } from '@portal/shared/domain/description-pictures';

/** Cards per page of a product list when the caller does not ask for a number. */
export const DEFAULT_PAGE_SIZE = 24;

/** Image slots 1 to 6, then the additional images (spec section 9). */
const allImages = (content: ProductContent): string[] => [
  ...content.product_images,
  ...content.additional_product_images,
];

/**
 * The slides as the apps show them. Hosted (issue 28): our copies only, a picture that could not
 * be hosted left out, so no browser asks a supplier's host for anything. Imported before pictures
 * were hosted: the supplier's addresses, as before.
 */
export function shownPictures(content: ProductContent): { images: string[]; pictures?: PictureSource[] } {
  const addresses = allImages(content);
  const hosted = content.hosted_images;
  if (!hosted) return { images: addresses };
  const pictures = addresses.flatMap((address) => {
    const picture = hosted[address];
    return picture ? [pictureSource(picture)] : [];
  });
  return { images: pictures.map((picture) => picture.src), pictures };
}

/**
 * The description as the apps show it. Hosted: each `<img>` points to our copy of its picture, and
 * one not hosted (yet, or ever) is left out: the picture function writes the pictures onto the
 * product as they are hosted (issue 38), the stored description keeps the supplier's addresses.
 */
export function shownDescription(content: ProductContent): string {
  const hosted = content.hosted_images;
  if (!hosted) return content.html_description;
  return rewriteDescriptionPictures(content.html_description, (address) => hosted[address]);
}

/**
 * The member's You Make on one unit of a product, in cents (issue 39: their commission rule, from
 * rules/programme.ts rulesOfMember); absent: the spec's 10 %.
 */
export type YouMakeOf = (id: string, content: ProductContent) => number;

/** Dollars with two decimals appear only here, at the API edge; everything inside is cents. */
export function toCard(id: string, content: ProductContent, youMakeOf?: YouMakeOf): ProductCard {
  const shown = content.hosted_images ? shownPictures(content) : undefined;
  return {
    id,
    product_name: content.product_name,
    brand: content.brand,
    msrp_us: formatCents(content.msrp_us_cents),
    dropshipping_price_us: formatCents(content.dropshipping_price_us_cents),
    you_make: formatCents(youMakeOf ? youMakeOf(id, content) : youMakeCents(content.dropshipping_price_us_cents)),
    image: shown
      ? (shown.images[0] ?? null)
      : (content.product_images[0] ?? content.additional_product_images[0] ?? null),
    ...(shown ? { picture: shown.pictures?.[0] ?? null } : {}),
  };
}

export function toDetail(id: string, content: ProductContent, youMakeOf?: YouMakeOf): ProductDetail {
  const shown = shownPictures(content);
  return {
    ...toCard(id, content, youMakeOf),
    images: shown.images,
    ...(shown.pictures ? { pictures: shown.pictures } : {}),
    html_description: shownDescription(content),
  };
}

/** Members see the approved values, never a newer imported version still in review; nothing once banned or withdrawn. */
export function memberView(product: ProductRecord): ProductContent | undefined {
  return membersSee(product.status, product.approved !== undefined) ? product.approved : undefined;
}

function reviewFacts(product: ProductRecord) {
  return {
    spu_no: product.current.spu_no,
    status: product.status,
    hasApprovedVersion: membersSee(product.status, product.approved !== undefined),
    updatedAt: product.updatedAt,
  };
}

/**
 * A card of the admin's catalogue lists: the values members see (or saw, when withdrawn); a
 * banned product's latest imported ones.
 */
export function toCatalogueCard(product: ProductRecord): ImportedProductCard {
  const shown = product.status === 'banned' ? product.current : (product.approved ?? product.current);
  return { ...toCard(product.id, shown), ...reviewFacts(product) };
}

/** The review list's card: small, whatever the size of the description. */
export function toImportedCard(product: ProductRecord): ImportedProductCard {
  return { ...toCard(product.id, product.current), ...reviewFacts(product) };
}

export function toImported(product: ProductRecord): ImportedProduct {
  const facts = reviewFacts(product);
  return {
    ...toDetail(product.id, product.current),
    ...facts,
    url: product.current.url,
    version: product.current.content_hash,
    changes: facts.hasApprovedVersion && product.approved ? changesBetween(product.approved, product.current) : null,
  };
}

/** How `after` differs from `before`, field by field, as the admin review shows it. */
export function changesBetween(before: ProductContent, after: ProductContent): ProductChange[] {
  const changes: ProductChange[] = [];
  const text = (field: Exclude<ProductChange['field'], 'images'>, old: string, now: string) => {
    if (old !== now) changes.push({ field, before: old, after: now });
  };
  text('product_name', before.product_name, after.product_name);
  text('brand', before.brand, after.brand);
  text('msrp_us', formatCents(before.msrp_us_cents), formatCents(after.msrp_us_cents));
  text(
    'dropshipping_price_us',
    formatCents(before.dropshipping_price_us_cents),
    formatCents(after.dropshipping_price_us_cents),
  );
  // The pictures as each version shows them: our copies when hosted (issue 28), so the review
  // never makes the admin's browser ask a supplier's host either.
  const oldImages = shownPictures(before).images;
  const newImages = shownPictures(after).images;
  if (oldImages.join('\n') !== newImages.join('\n')) {
    changes.push({
      field: 'images',
      before: oldImages,
      after: newImages,
      added: newImages.filter((image) => !oldImages.includes(image)),
      removed: oldImages.filter((image) => !newImages.includes(image)),
    });
  }
  text('html_description', before.html_description, after.html_description);
  text('url', before.url, after.url);
  return changes;
}
