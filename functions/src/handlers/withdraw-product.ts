import { clock } from '../config/clock';
import { withdrawProduct } from '@portal/shared/api/calls/withdraw-product';
import { apiHandler, cancelStarts, products } from '../composition';
import { startCancelling } from '../payments/open-intents';
import { assertMoved } from '../products/moderation';

/** Approved → withdrawn: members' lists, share pages and checkout stop showing it. */
export const handler = apiHandler(withdrawProduct, async ({ body }) => {
  assertMoved('withdraw', await products.move(body.id, 'withdraw', new Date(clock.now()).toISOString()));
  // Its checkouts not yet paid are cancelled at Stripe through the checkout-cancel queue (issue 38).
  const openCheckouts = await startCancelling(cancelStarts, body.id);
  return { id: body.id, status: 'withdrawn' as const, openCheckouts };
});
