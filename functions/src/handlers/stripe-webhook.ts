import { stripeWebhook } from '@portal/shared/api/calls/stripe-webhook';
import { publicApiHandler, webhooks } from '../composition';
import { receiveWebhook } from '../payments/payouts';

/**
 * Stripe's platform endpoint: the platform account's own events (payments, refunds, disputes,
 * transfers), signed with `stripeWebhookSecret`. The signature is checked on the body exactly as
 * it arrived.
 */
export const handler = publicApiHandler(stripeWebhook, async ({ event, lambda }) => {
  const raw = event.body ?? '';
  const body = event.isBase64Encoded ? Buffer.from(raw, 'base64') : raw;
  await receiveWebhook(
    webhooks,
    body,
    event.headers['stripe-signature'],
    'platform',
    lambda && {
      remainingMs: () => lambda.getRemainingTimeInMillis(),
    },
  );
  return { received: true as const };
});
