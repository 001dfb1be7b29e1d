import { stripeWebhook } from '@portal/shared/api/calls/stripe-webhook';
import { platformWebhooks, webhookHandler } from '../composition';

/** Stripe's platform endpoint: the platform account's own events (payments, refunds, disputes, transfers), signed with `stripeWebhookSecret`. */
export const handler = webhookHandler(stripeWebhook, 'platform', platformWebhooks);
