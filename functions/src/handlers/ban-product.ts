import { clock } from '../config/clock';
import { banProduct } from '@portal/shared/api/calls/ban-product';
import { apiHandler, productIntents, products } from '../composition';
import { cancelOpenIntents } from '../payments/open-intents';
import { assertModerated } from '../products/moderation';

export const handler = apiHandler(banProduct, async ({ body }) => {
  assertModerated(await products.ban(body.id, new Date(clock.now()).toISOString()));
  // Its checkouts not yet paid are cancelled at Stripe, in bounded batches (docs/decisions/0201).
  const { cancelled, notCancelled, more } = await cancelOpenIntents(productIntents, body.id);
  return { id: body.id, status: 'banned' as const, openCheckouts: { cancelled, notCancelled, more } };
});
