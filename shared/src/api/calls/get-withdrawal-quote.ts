import type { Call } from '../call';
import { WithdrawalQuote, WithdrawalQuoteRequest } from '../payout-batches';

/**
 * POST /api/getWithdrawalQuote (member): what "Withdraw" would pay now: the available balance after
 * clawbacks, the minimum, the card's last four, instant or standard and Stripe's instant fee.
 */
export const getWithdrawalQuote = {
  name: 'getWithdrawalQuote',
  path: '/api/getWithdrawalQuote',
  role: 'member',
  body: 'json',
  request: WithdrawalQuoteRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const getWithdrawalQuoteResponse = WithdrawalQuote;
