import type { PayoutBatchStore } from './batch-store';

/**
 * `payout.failed` for a batch's payout (its metadata names `batchId` and `memberId`; a
 * per-commission payout names `commissionId` and goes to money-movement.ts): the commissions it
 * paid go back to be paid, free for the next batch or button, and the batch says why. Apart from
 * batches.ts so the webhook functions carry only this.
 */
export async function onBatchPayoutFailed(
  deps: { batches: Pick<PayoutBatchStore, 'get' | 'failPayout' | 'refusePayout'>; now: () => number },
  event: { payoutId: string; metadata: Record<string, string>; failure: string | null },
): Promise<boolean> {
  const { batchId, memberId } = event.metadata;
  if (!batchId || !memberId) return false;
  const batch = await deps.batches.get(batchId, memberId);
  if (!batch) return false;
  const failure = event.failure ?? 'The payout failed.';
  const now = new Date(deps.now()).toISOString();
  if (batch.state === 'paid' && batch.payoutId === event.payoutId) {
    return deps.batches.failPayout(batch, event.payoutId, failure, now);
  }
  // The event outran our record of the payout: its attempt moves on, so that record cannot land;
  // the batch stays open and its next run pays with a new key.
  if (batch.state === 'transferred' && String(batch.payoutAttempt) === event.metadata.attempt) {
    return deps.batches.refusePayout(batch, failure, now);
  }
  return false;
}
