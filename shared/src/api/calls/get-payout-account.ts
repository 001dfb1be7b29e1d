import type { Call } from '../call';
import { GetPayoutAccountRequest, PayoutAccountResponse } from '../payments';

/**
 * POST /api/getPayoutAccount (member): The caller's profile as stored now, with the payout
 * account's state as Stripe's `account.updated` last reported it (Verifying, Ready, or what needs
 * correcting): the payout account screen reads it when it opens and while Stripe is verifying.
 */
export const getPayoutAccount = {
  name: 'getPayoutAccount',
  path: '/api/getPayoutAccount',
  role: 'member',
  body: 'json',
  request: GetPayoutAccountRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const getPayoutAccountResponse = PayoutAccountResponse;
