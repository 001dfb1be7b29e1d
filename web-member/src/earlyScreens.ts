import { CATALOGUE_FIRST_SCREENFUL, CATALOGUE_PAGE_SIZE } from '@portal/shared/query/catalogue';
import { call, decodedSegment, type EarlyScreens } from '@portal/shared/ui/early/pageScript';

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
        page.items.slice(0, CATALOGUE_FIRST_SCREENFUL).map((item) => item.image),
      ),
    };
  }
  if (path === '/member_product_detail') {
    const id = (params.get('id') ?? '').trim();
    return {
      afterSession: id ? call('getApprovedProduct', { id }, (product) => product.images[0]) : undefined,
      sessionOnly: !id,
      screen: 'detail',
    };
  }
  if (path === '/my_account') return { sessionOnly: true };
  const shop = /^\/shop\/([^/]+)$/.exec(path);
  if (shop) {
    // The shop page's one public read (screens/shop/sharedProductQuery.ts), no session check.
    const ref = params.get('ref');
    const body = { id: decodedSegment(shop[1]!), ...(ref ? { ref } : {}) };
    return { now: call('getSharedProduct', body, (answer) => answer.product?.images[0]), screen: 'shop' };
  }
  return undefined;
};
