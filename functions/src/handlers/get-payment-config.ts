import { getPaymentConfig } from '@portal/shared/api/calls/get-payment-config';
import { STRIPE_EMULATOR_BASE } from '@portal/shared/api/payment-config';
import { publicApiHandler } from '../composition';
import { env } from '../config/env';
import { getSecret } from '../config/secrets';

/**
 * The publishable key the browser makes card tokens with. Against the local emulator
 * (STRIPE_API_URL set) the browser reaches it through the local server's same-origin
 * `/stripe-emulator` path; against Stripe itself, through Stripe.js.
 */
export const handler = publicApiHandler(getPaymentConfig, async () => ({
  publishableKey: await getSecret('stripePublishableKey'),
  ...(env().STRIPE_API_URL ? { emulatorBase: STRIPE_EMULATOR_BASE } : {}),
}));
