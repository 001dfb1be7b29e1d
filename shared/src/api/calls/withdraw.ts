import type { Call } from '../call';
import { WithdrawRequest, WithdrawResponse } from '../payout-batches';

/**
 * POST /api/withdraw (member): pays the member's available balance to their debit card, instant
 * where the card takes it. One at a time per member: a second while one runs is a 409 in words.
 */
export const withdraw = {
  name: 'withdraw',
  path: '/api/withdraw',
  role: 'member',
  body: 'json',
  request: WithdrawRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const withdrawResponse = WithdrawResponse;
