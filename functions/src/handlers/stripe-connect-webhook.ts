import { stripeConnectWebhook } from '@portal/shared/api/calls/stripe-connect-webhook';
import { connectWebhooks, webhookHandler } from '../composition';

/** Stripe's Connect endpoint: the connected accounts' events (`account.updated`, payouts, external accounts), signed with `stripeConnectWebhookSecret`. */
export const handler = webhookHandler(stripeConnectWebhook, 'connect', connectWebhooks);
