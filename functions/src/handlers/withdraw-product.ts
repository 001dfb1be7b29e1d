import { clock } from '../config/clock';
import { withdrawProduct } from '@portal/shared/api/calls/withdraw-product';
import { apiHandler, productIntents, products } from '../composition';
import { cancelOpenIntents } from '../payments/open-intents';
import { assertMoved } from '../products/moderation';

/** Approved → withdrawn: members' lists, share pages and checkout stop showing it. */
export const handler = apiHandler(withdrawProduct, async ({ body }) => {
  assertMoved('withdraw', await products.move(body.id, 'withdraw', new Date(clock.now()).toISOString()));
  // Its checkouts not yet paid are cancelled at Stripe, in bounded batches (docs/decisions/0201).
  const { cancelled, notCancelled, more } = await cancelOpenIntents(productIntents, body.id);
  return { id: body.id, status: 'withdrawn' as const, openCheckouts: { cancelled, notCancelled, more } };
});
