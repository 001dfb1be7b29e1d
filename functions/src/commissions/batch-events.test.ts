import { describe, expect, it } from 'vitest';
import type { NewTransfer } from '../payments/payment-gateway';
import { feeBackKey, memberFeeOf, onBatchPayoutFailed } from './batch-events';
import type { MemberBatch } from './batch-store';

/**
 * `payout.failed` of an instant payout whose fee the member paid (decision 0340): the failure is
 * recorded with the fee to give back, then one transfer keyed by the payout, then its id. A store
 * held in memory with the conditions the DynamoDB one writes; a gateway that can fail once.
 */
const paidBatch = (over: Partial<MemberBatch> = {}): MemberBatch => ({
  batchId: 'withdraw-1',
  memberId: 'm1',
  memberEmail: 'm1@example.com',
  kind: 'withdraw',
  state: 'paid',
  commissions: [],
  owedSeenCents: 0,
  nettedCents: 0,
  transferCents: 5941,
  transfers: [{ chargeId: 'ch_1', amountCents: 5941, commissionIds: ['c1', 'c2'], id: 'tr_1', feeCents: 59 }],
  payoutCents: 5941,
  feeCents: 59,
  feePaidBy: 'member',
  method: 'instant',
  payoutId: 'po_1',
  payoutAttempt: 0,
  failure: null,
  createdAt: '2026-12-01T00:00:00.000Z',
  updatedAt: '2026-12-01T00:00:00.000Z',
  ...over,
});

function memoryStore(start: MemberBatch) {
  let batch = structuredClone(start);
  return {
    read: () => batch,
    get: async () => structuredClone(batch),
    failPayout: async (seen: MemberBatch, payoutId: string, failure: string, now: string, feeBackCents = 0) => {
      if (batch.state !== 'paid' || batch.payoutId !== payoutId) return false;
      batch = {
        ...batch,
        state: 'payout_failed',
        failure,
        updatedAt: now,
        ...(feeBackCents ? { feeBackCents, feeBackTransferId: null } : {}),
      };
      return true;
    },
    refusePayout: async () => false,
    recordFeeBack: async (seen: MemberBatch, transferId: string) => {
      if (batch.state !== 'payout_failed' || batch.payoutId !== seen.payoutId || batch.feeBackTransferId !== null)
        return false;
      batch = { ...batch, feeBackTransferId: transferId };
      return true;
    },
  };
}

const event = {
  payoutId: 'po_1',
  metadata: { batchId: 'withdraw-1', memberId: 'm1', attempt: '0' },
  failure: 'The bank could not process this payout.',
  accountId: 'acct_1',
};

describe('onBatchPayoutFailed: the member’s instant fee given back', () => {
  it('records the failure with the fee, then one transfer keyed by the payout; a delivery that died before the transfer makes it on the next', async () => {
    const store = memoryStore(paidBatch());
    const made: NewTransfer[] = [];
    let down = true;
    const gateway = {
      createTransfer: async (transfer: NewTransfer) => {
        if (down) throw new Error('Stripe did not answer');
        made.push(transfer);
        // Stripe answers the same transfer for the same key.
        return { id: `tr_${transfer.idempotencyKey.length}`, amountCents: transfer.amountCents };
      },
    };
    const deps = { batches: store, gateway, now: () => Date.parse('2026-12-02T00:00:00.000Z') };

    // First delivery: the failure is recorded, Stripe does not answer the transfer: non-2xx, delivered again.
    await expect(onBatchPayoutFailed(deps, event)).rejects.toThrow('Stripe did not answer');
    expect(store.read()).toMatchObject({ state: 'payout_failed', feeBackCents: 59, feeBackTransferId: null });

    down = false;
    expect(await onBatchPayoutFailed(deps, event)).toBe(false);
    expect(made).toEqual([
      {
        amountCents: 59,
        destinationAccountId: 'acct_1',
        idempotencyKey: feeBackKey('withdraw-1', 'm1', 'po_1'),
        metadata: { batchId: 'withdraw-1', memberId: 'm1', feeBack: 'instant-fee', payoutId: 'po_1' },
        transferGroup: 'batch:withdraw-1:m1',
        sourceTransaction: 'ch_1',
      },
    ]);
    expect(store.read().feeBackTransferId).toBe(`tr_${feeBackKey('withdraw-1', 'm1', 'po_1').length}`);

    // Later deliveries: nothing more.
    for (let round = 0; round < 3; round++) expect(await onBatchPayoutFailed(deps, event)).toBe(false);
    expect(made).toHaveLength(1);
  });

  it('gives nothing back when the platform paid the fee, or the payout was standard', async () => {
    expect(memberFeeOf(paidBatch({ feePaidBy: 'platform' }))).toBe(0);
    expect(memberFeeOf(paidBatch({ method: 'standard', feeCents: 0 }))).toBe(0);
    const store = memoryStore(paidBatch({ feePaidBy: 'platform', transfers: [] }));
    const made: NewTransfer[] = [];
    const gateway = {
      createTransfer: async (transfer: NewTransfer) => {
        made.push(transfer);
        return { id: 'tr_x', amountCents: transfer.amountCents };
      },
    };
    expect(await onBatchPayoutFailed({ batches: store, gateway, now: () => 0 }, event)).toBe(true);
    expect(store.read()).toMatchObject({ state: 'payout_failed' });
    expect(store.read().feeBackCents).toBeUndefined();
    expect(made).toEqual([]);
  });
});
