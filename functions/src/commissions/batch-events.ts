import type { MemberBatch, PayoutBatchStore } from './batch-store';

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

/**
 * `payout.paid` for a batch's payout: Stripe says the money reached the member's card. A batch
 * whose payout record was lost (the run died between Stripe's answer and our write) is completed
 * from the event: its commissions move to paid with that payout, as the run would have done, and
 * the member's lock is freed. A recorded one keeps the time (`payoutPaidAt`). Conditional on the
 * batch's state and attempt, so a replay, or an event of an older attempt, changes nothing.
 * Answers the batch as it is after, paid by this payout, or undefined.
 */
export async function onBatchPayoutPaid(
  deps: {
    batches: Pick<PayoutBatchStore, 'get' | 'recordPayout' | 'acknowledgePayoutPaid' | 'unlock'>;
    now: () => number;
  },
  event: {
    payoutId: string;
    metadata: Record<string, string>;
    created: number;
    arrivalDate?: number | null;
    method?: string | null;
  },
): Promise<MemberBatch | undefined> {
  const { batchId, memberId } = event.metadata;
  if (!batchId || !memberId) return undefined;
  const paidAt = new Date(event.created * 1000).toISOString();
  for (let round = 0; round < 2; round++) {
    const batch = await deps.batches.get(batchId, memberId);
    if (!batch) return undefined;
    if (batch.state === 'paid' && batch.payoutId === event.payoutId) {
      await deps.batches.acknowledgePayoutPaid(batch, event.payoutId, paidAt);
      return { ...batch, payoutPaidAt: batch.payoutPaidAt ?? paidAt };
    }
    if (batch.state !== 'transferred' || String(batch.payoutAttempt) !== event.metadata.attempt) return undefined;
    const paid: MemberBatch = {
      ...batch,
      method: batch.method ?? (event.method === 'instant' ? 'instant' : 'standard'),
      arrivalDate: event.arrivalDate ?? null,
    };
    if (await deps.batches.recordPayout(paid, event.payoutId, new Date(deps.now()).toISOString())) {
      await deps.batches.unlock(memberId, batchId);
    }
    // Recorded now, or by a run meanwhile: read again and keep the time.
  }
  return undefined;
}
