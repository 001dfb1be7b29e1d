import { clock } from '../config/clock';
import { banProduct } from '@portal/shared/api/calls/ban-product';
import { apiHandler, cancelStarts, products } from '../composition';
import { startCancelling } from '../payments/open-intents';
import { assertModerated } from '../products/moderation';

export const handler = apiHandler(banProduct, async ({ body }) => {
  assertModerated(await products.ban(body.id, new Date(clock.now()).toISOString()));
  // Its checkouts not yet paid are cancelled at Stripe through the checkout-cancel queue (issue 38).
  const openCheckouts = await startCancelling(cancelStarts, body.id);
  return { id: body.id, status: 'banned' as const, openCheckouts };
});
