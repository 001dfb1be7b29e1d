import { stripeWebhook } from '@portal/shared/api/calls/stripe-webhook';
import { publicApiHandler, webhooks } from '../composition';
import { receiveWebhook } from '../payments/payouts';

/** Stripe's signed events: the signature is checked on the body exactly as it arrived. */
export const handler = publicApiHandler(stripeWebhook, async ({ event }) => {
  const raw = event.body ?? '';
  const body = event.isBase64Encoded ? Buffer.from(raw, 'base64') : raw;
  await receiveWebhook(webhooks, body, event.headers['stripe-signature']);
  return { received: true as const };
});
