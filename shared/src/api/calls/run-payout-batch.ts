import type { Call } from '../call';
import { RunPayoutBatchRequest, RunPayoutBatchResponse } from '../payout-batches';

/**
 * POST /api/runPayoutBatch (admin): "Send all available" (`step: send`) or "Pay all" (`step: pay`)
 * for one member or everyone: one transfer and one payout per member, the commissions each carries
 * claimed first; a retry with the same `requestId` continues the same batch.
 */
export const runPayoutBatch = {
  name: 'runPayoutBatch',
  path: '/api/runPayoutBatch',
  role: 'admin',
  body: 'json',
  request: RunPayoutBatchRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const runPayoutBatchResponse = RunPayoutBatchResponse;
