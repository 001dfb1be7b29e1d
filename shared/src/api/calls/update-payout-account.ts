import type { Call } from '../call';
import { PayoutAccountResponse, UpdatePayoutAccountRequest } from '../payments';

/**
 * POST /api/updatePayoutAccount (member): Sends the details Stripe could not verify, as the member
 * corrected them (name, date of birth, home address, tax ID), to the caller's own connected
 * account; Stripe checks them again and the account answers "Verifying" meanwhile.
 */
export const updatePayoutAccount = {
  name: 'updatePayoutAccount',
  path: '/api/updatePayoutAccount',
  role: 'member',
  body: 'json',
  request: UpdatePayoutAccountRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const updatePayoutAccountResponse = PayoutAccountResponse;
