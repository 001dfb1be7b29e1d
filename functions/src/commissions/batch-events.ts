import type { PaymentGateway } from '../payments/payment-gateway';
import type { MemberBatch, PayoutBatchStore } from './batch-store';

/** The key of the transfer that gives a failed payout's member fee back: one per payout, whatever the deliveries. */
export const feeBackKey = (batchId: string, memberId: string, payoutId: string): string =>
  `portal:batch:${batchId}:${memberId}:fee-back:${payoutId}`;

/**
 * The instant fee the member paid for this batch's payout (decision 0270: taken off the sale's
 * transfer, so the payout is the whole transfer): 0 when the platform paid it, or the payout was standard.
 */
export const memberFeeOf = (batch: MemberBatch): number =>
  batch.method === 'instant' && batch.feePaidBy === 'member' && batch.feeCents > 0 ? batch.feeCents : 0;

/**
 * `payout.failed` for a batch's payout (its metadata names `batchId` and `memberId`; a
 * per-commission payout names `commissionId` and goes to money-movement.ts): the commissions it
 * paid go back to be paid, free for the next batch or button, and the batch says why. Apart from
 * batches.ts so the webhook functions carry only this.
 *
 * An instant payout whose fee the member paid (decision 0340): Stripe gives the connected account
 * back the payout, which is the transfer LESS the fee, while the commissions waiting again are worth
 * the fee more. The fee goes back to the member in a transfer keyed by the payout, funded from the
 * sale it came off: the member's balance holds what the portal shows them, and they can withdraw
 * it. Recorded first (with the fee to give back), then the transfer, then its id: a delivery that
 * dies in between is delivered again and makes the same transfer (same key), which lands once.
 */
export async function onBatchPayoutFailed(
  deps: {
    batches: Pick<PayoutBatchStore, 'get' | 'failPayout' | 'refusePayout' | 'recordFeeBack'>;
    gateway?: Pick<PaymentGateway, 'createTransfer'>;
    now: () => number;
  },
  event: { payoutId: string; metadata: Record<string, string>; failure: string | null; accountId?: string | null },
): Promise<boolean> {
  const { batchId, memberId } = event.metadata;
  if (!batchId || !memberId) return false;
  const batch = await deps.batches.get(batchId, memberId);
  if (!batch) return false;
  const failure = event.failure ?? 'The payout failed.';
  const now = new Date(deps.now()).toISOString();
  if (batch.state === 'paid' && batch.payoutId === event.payoutId) {
    const feeBackCents = memberFeeOf(batch);
    const moved = await deps.batches.failPayout(batch, event.payoutId, failure, now, feeBackCents);
    const after = moved
      ? { ...batch, state: 'payout_failed' as const, failure, feeBackCents, feeBackTransferId: null }
      : await deps.batches.get(batchId, memberId);
    if (after) await giveFeeBack(deps, after, event.payoutId, event.accountId);
    return moved;
  }
  // A later delivery of a failure already recorded: the fee's transfer, if it is still to make.
  if (batch.state === 'payout_failed' && batch.payoutId === event.payoutId) {
    await giveFeeBack(deps, batch, event.payoutId, event.accountId);
    return false;
  }
  // The event outran our record of the payout: its attempt moves on, so that record cannot land;
  // the batch stays open and its next run pays with a new key.
  if (batch.state === 'transferred' && String(batch.payoutAttempt) === event.metadata.attempt) {
    return deps.batches.refusePayout(batch, failure, now);
  }
  return false;
}

/** The member's fee of a failed payout sent back to their balance, once (its key names the payout). */
async function giveFeeBack(
  deps: Parameters<typeof onBatchPayoutFailed>[0],
  batch: MemberBatch,
  payoutId: string,
  accountId: string | null | undefined,
): Promise<void> {
  if (batch.state !== 'payout_failed' || batch.payoutId !== payoutId) return;
  if (!batch.feeBackCents || batch.feeBackTransferId || !deps.gateway || !accountId) return;
  // The sale whose transfer the fee came off funds its return (its charge has room for it).
  const chargeId = batch.transfers?.find((part) => (part.feeCents ?? 0) > 0)?.chargeId ?? null;
  const transfer = await deps.gateway.createTransfer({
    amountCents: batch.feeBackCents,
    destinationAccountId: accountId,
    idempotencyKey: feeBackKey(batch.batchId, batch.memberId, payoutId),
    metadata: { batchId: batch.batchId, memberId: batch.memberId, feeBack: 'instant-fee', payoutId },
    transferGroup: `batch:${batch.batchId}:${batch.memberId}`,
    ...(chargeId ? { sourceTransaction: chargeId } : {}),
  });
  await deps.batches.recordFeeBack(batch, transfer.id, new Date(deps.now()).toISOString());
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
