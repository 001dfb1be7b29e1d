import { stripeConnectWebhook } from '@portal/shared/api/calls/stripe-connect-webhook';
import { publicApiHandler, webhooks } from '../composition';
import { receiveWebhook } from '../payments/payouts';

/**
 * Stripe's Connect endpoint: the connected accounts' events (`account.updated`, payouts, external
 * accounts), signed with `stripeConnectWebhookSecret`. The signature is checked on the body exactly
 * as it arrived.
 */
export const handler = publicApiHandler(stripeConnectWebhook, async ({ event, lambda }) => {
  const raw = event.body ?? '';
  const body = event.isBase64Encoded ? Buffer.from(raw, 'base64') : raw;
  await receiveWebhook(
    webhooks,
    body,
    event.headers['stripe-signature'],
    'connect',
    lambda && {
      remainingMs: () => lambda.getRemainingTimeInMillis(),
    },
  );
  return { received: true as const };
});
