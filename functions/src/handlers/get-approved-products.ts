import { getApprovedProducts } from '@portal/shared/api/calls/get-approved-products';
import { apiHandler, commissionRules, products } from '../composition';
import { DEFAULT_PAGE_SIZE, memberView, toCard } from '../products/present';
import { youMakeOfMember } from '../rules/programme';

/** The member catalogue: one Query page of the approved index, at the approved values, You Make by the member's rule. */
export const handler = apiHandler(getApprovedProducts, async ({ body, user }) => {
  const [page, youMakeOf] = await Promise.all([
    products.approvedPage(body.cursor, body.limit ?? DEFAULT_PAGE_SIZE),
    user ? youMakeOfMember(commissionRules.store, user.id) : undefined,
  ]);
  const items = page.items.flatMap((product) => {
    const content = memberView(product);
    return content ? [toCard(product.id, content, youMakeOf)] : [];
  });
  return { items, nextCursor: page.nextCursor };
});
