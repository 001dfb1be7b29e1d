import type { Call } from '../call';
import { AddPayoutMethodRequest, AddPayoutMethodResponse } from '../payments';

/**
 * POST /api/addPayoutMethod (member): Attaches a debit card token made in the browser to the
 * caller's own payout account.
 */
export const addPayoutMethod = {
  name: 'addPayoutMethod',
  path: '/api/addPayoutMethod',
  role: 'member',
  body: 'json',
  request: AddPayoutMethodRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const addPayoutMethodResponse = AddPayoutMethodResponse;
