import type { Call } from '../call';
import { ExternalAccounts, ExternalAccountsRequest } from '../payments';

/**
 * POST /api/getExternalAccounts (member): The debit cards of the caller's own payout account.
 */
export const getExternalAccounts = {
  name: 'getExternalAccounts',
  path: '/api/getExternalAccounts',
  role: 'member',
  body: 'json',
  request: ExternalAccountsRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const getExternalAccountsResponse = ExternalAccounts;
