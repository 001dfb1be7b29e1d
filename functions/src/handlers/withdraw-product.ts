import { withdrawProduct } from '@portal/shared/api/calls/withdraw-product';
import { apiHandler, products } from '../composition';
import { assertMoved } from '../products/moderation';

/** Approved → withdrawn: members' lists, share pages and checkout stop showing it. */
export const handler = apiHandler(withdrawProduct, async ({ body }) => {
  assertMoved('withdraw', await products.move(body.id, 'withdraw', new Date().toISOString()));
  return { id: body.id, status: 'withdrawn' as const };
});
