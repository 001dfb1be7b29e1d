import { pure } from './pure';
import * as z from './zod';

/**
 * /api/getPaymentConfig: what the browser needs to make a card token. `publishableKey` is
 * Stripe's publishable key (`pk_…`, public by design). `emulatorBase` is set only when the
 * functions talk to the local Stripe emulator: the same-origin path under which the local
 * server forwards the browser's two Stripe calls (card tokens, confirming a payment intent).
 * Without it the browser uses Stripe.js (Elements) against Stripe itself.
 */
export const PaymentConfig = /* @__PURE__ */ pure(() =>
  z.object({
    publishableKey: z.string().check(z.regex(/^pk_(test|live)_[A-Za-z0-9_]+$/)),
    emulatorBase: z.optional(z.string().check(z.regex(/^\/[a-z-]+$/))),
  }),
);
export type PaymentConfig = z.infer<typeof PaymentConfig>;

/** The path the local server forwards to the Stripe emulator (infra/local/server.ts). */
export const STRIPE_EMULATOR_BASE = '/stripe-emulator';
