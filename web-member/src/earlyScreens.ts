import { CATALOGUE_FIRST_SCREENFUL, CATALOGUE_PAGE_SIZE } from '@portal/shared/query/catalogue';
import { call, decodedSegment, type EarlyScreens } from '@portal/shared/ui/early/pageScript';
import { PICTURE_SIZES } from '@portal/shared/domain/pictures';
import type { PictureSource } from '@portal/shared/api/products';

/** The first picture to preload: a hosted picture's variants with the sizes of its <img> (issue 28), or its address. */
const firstPicture = (
  image: string | null | undefined,
  picture: PictureSource | null | undefined,
  sizes: string,
): string | { src: string; srcset: string; sizes: string } | undefined =>
  picture && image === picture.src ? { src: picture.src, srcset: picture.srcset, sizes } : (image ?? undefined);

/**
 * The member app's early script (issue 16; shared/src/ui/early/pageScript.ts): the first calls of
 * the screens it knows, as the app's own first calls make them (landingData.ts, the screens'
 * queries), so the app takes these answers instead of asking again. Built by the app's build into
 * a script of its own that the page loads from its head (shared/src/build/early-script.ts).
 */
export const memberEarlyScreens: EarlyScreens = (path, params) => {
  if (path === '/') {
    // The catalogue's first page (shared/src/query/catalogue.ts, approvedProductsQuery), and the
    // pictures of its first screenful of cards, which the list asks for at high priority.
    return {
      afterSession: call('getApprovedProducts', { limit: CATALOGUE_PAGE_SIZE }, (page) =>
        page.items
          .slice(0, CATALOGUE_FIRST_SCREENFUL)
          .map((item) => firstPicture(item.image, item.picture, PICTURE_SIZES.card)),
      ),
    };
  }
  if (path === '/member_product_detail') {
    const id = (params.get('id') ?? '').trim();
    return {
      afterSession: id
        ? call('getApprovedProduct', { id }, (product) =>
            firstPicture(product.images[0], product.pictures?.[0], PICTURE_SIZES.detail),
          )
        : undefined,
      sessionOnly: !id,
      screen: 'detail',
    };
  }
  if (path === '/my_account') return { sessionOnly: true, screen: 'account' };
  const shop = /^\/shop\/([^/]+)$/.exec(path);
  if (shop) {
    // The shop page's one public read (screens/shop/sharedProductQuery.ts), no session check.
    const ref = params.get('ref');
    const body = { id: decodedSegment(shop[1]!), ...(ref ? { ref } : {}) };
    return {
      now: call('getSharedProduct', body, (answer) =>
        firstPicture(answer.product?.images[0], answer.product?.pictures?.[0], PICTURE_SIZES.detail),
      ),
      screen: 'shop',
    };
  }
  return undefined;
};
