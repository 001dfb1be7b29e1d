/**
 * The secrets a function may be granted, and the environment variable that carries each one's
 * value locally (or its ARN, suffixed `_ARN`, in AWS). Kept apart from the route table so that
 * reading a secret does not put the whole route table into every function's bundle.
 */
export type SecretName =
  'tokenSigningKey' | 'stripeSecretKey' | 'stripeWebhookSecret' | 'stripeConnectWebhookSecret' | 'stripePublishableKey';

export const secretEnv: Record<SecretName, string> = {
  tokenSigningKey: 'TOKEN_SIGNING_KEY',
  stripeSecretKey: 'STRIPE_SECRET_KEY',
  /** The platform endpoint's signing secret (`/api/stripeWebhook`: the platform account's own events). */
  stripeWebhookSecret: 'STRIPE_WEBHOOK_SECRET',
  /** The Connect endpoint's signing secret (`/api/stripeConnectWebhook`: the connected accounts' events). */
  stripeConnectWebhookSecret: 'STRIPE_CONNECT_WEBHOOK_SECRET',
  /** Public by design (the browser gets it), kept beside its secret key so the pair is set together. */
  stripePublishableKey: 'STRIPE_PUBLISHABLE_KEY',
};
