import { getApprovedProducts } from '@portal/shared/api/calls/get-approved-products';
import { apiHandler, products } from '../composition';
import { DEFAULT_PAGE_SIZE, memberView, toCard } from '../products/present';

/** The member catalogue: one Query page of the approved index, at the approved values. */
export const handler = apiHandler(getApprovedProducts, async ({ body }) => {
  const page = await products.approvedPage(body.cursor, body.limit ?? DEFAULT_PAGE_SIZE);
  const items = page.items.flatMap((product) => {
    const content = memberView(product);
    return content ? [toCard(product.id, content)] : [];
  });
  return { items, nextCursor: page.nextCursor };
});
