import type { Call } from '../call';
import { CreatePayoutAccountBody, PayoutAccountResponse } from '../payments';

/**
 * POST /api/createPayoutAccount (member): Creates the member's Stripe Connect account from the
 * payout form (or the spec's `payoutRequest`, payments.ts).
 */
export const createPayoutAccount = {
  name: 'createPayoutAccount',
  path: '/api/createPayoutAccount',
  role: 'member',
  body: 'json',
  request: CreatePayoutAccountBody,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const createPayoutAccountResponse = PayoutAccountResponse;
