import { clock } from '../config/clock';
import { returnProductToReview } from '@portal/shared/api/calls/return-product-to-review';
import { apiHandler, products } from '../composition';
import { assertMoved } from '../products/moderation';

/** Banned or withdrawn → review, as a new product: members see it again only once it is approved. */
export const handler = apiHandler(returnProductToReview, async ({ body }) => {
  assertMoved('reopen', await products.move(body.id, 'reopen', new Date(clock.now()).toISOString()));
  return { id: body.id, status: 'review' as const };
});
