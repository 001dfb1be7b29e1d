import type { Call } from '../call';
import * as z from '../zod';
import { WebhookReceived } from '../payments';

/**
 * POST /api/stripeConnectWebhook (public): the connected accounts' signed events (Stripe's Connect
 * endpoint: `account.updated`, payouts, external accounts), verified with their own signing secret.
 * Public: only a valid `Stripe-Signature` on the raw body gets past the 400, so the body is any
 * JSON here and is read only after that check.
 */
export const stripeConnectWebhook = {
  name: 'stripeConnectWebhook',
  path: '/api/stripeConnectWebhook',
  role: 'public',
  body: 'json',
  request: z.unknown(),
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const stripeConnectWebhookResponse = WebhookReceived;
