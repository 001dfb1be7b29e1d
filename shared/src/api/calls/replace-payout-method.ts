import type { Call } from '../call';
import { AddPayoutMethodResponse, AddPayoutMethodRequest } from '../payments';

/**
 * POST /api/replacePayoutMethod (member): Replaces the debit card of the caller's own payout account: the new card becomes the default for USD, then the old ones are deleted at Stripe.
 */
export const replacePayoutMethod = {
  name: 'replacePayoutMethod',
  path: '/api/replacePayoutMethod',
  role: 'member',
  body: 'json',
  request: AddPayoutMethodRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const replacePayoutMethodResponse = AddPayoutMethodResponse;
