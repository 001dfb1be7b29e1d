import { getApprovedProduct } from '@portal/shared/api/calls/get-approved-product';
import { apiHandler, commissionRules, products } from '../composition';
import { DomainError } from '../errors';
import { memberView, toDetail } from '../products/present';
import { youMakeOfMember } from '../rules/programme';

export const handler = apiHandler(getApprovedProduct, async ({ body, user }) => {
  const [product, youMakeOf] = await Promise.all([
    products.get(body.id),
    user ? youMakeOfMember(commissionRules.store, user.id) : undefined,
  ]);
  const content = product && memberView(product);
  // A product in review for the first time, or banned, is not in the catalogue: not found.
  if (!product || !content) throw new DomainError('not-found', 'This product is not in the catalogue.');
  // You Make follows the member's commission rule (issue 39).
  return toDetail(product.id, content, youMakeOf);
});
