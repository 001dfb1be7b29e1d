import { getCatalogueProducts } from '@portal/shared/api/calls/get-catalogue-products';
import { apiHandler, products } from '../composition';
import { DEFAULT_PAGE_SIZE, toCatalogueCard } from '../products/present';

/** One Query page of a catalogue list by name (and the SPU's product first when searching). */
export const handler = apiHandler(getCatalogueProducts, async ({ body }) => {
  const search = body.search?.trim() || undefined;
  const page = await products.catalogue(body.list, search, body.cursor, body.limit ?? DEFAULT_PAGE_SIZE);
  return { items: page.items.map(toCatalogueCard), nextCursor: page.nextCursor };
});
