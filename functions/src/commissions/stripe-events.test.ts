import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { MoneyEvent, SaleEvent } from '../payments/payouts';
import type { MemberBatch, PayoutBatchStore } from './batch-store';
import type { FailedRefund, RefundDeps } from './refunds';
import {
  FAILURE_APPLIED_BEFORE,
  onPayoutEvent,
  onSaleEvent,
  type PayoutNotice,
  type SaleNotice,
} from './stripe-events';

/**
 * The webhooks' decisions against in-memory ports: the ledger's moves (refunds.ts, batch-events.ts,
 * money-movement.ts) are replaced by recorders, so what is tested is which notice each event gives.
 * The moves themselves, their races and crashes are the handler tests' (test/handlers/ledger.test.ts, …).
 */
const moves = vi.hoisted(() => ({
  onChargeRefunded: vi.fn(async () => undefined),
  onRefundUpdated: vi.fn(async (): Promise<FailedRefund | undefined> => undefined),
  onDispute: vi.fn(async () => undefined),
  onBatchPayoutPaid: vi.fn(async (): Promise<MemberBatch | undefined> => undefined),
  onBatchPayoutFailed: vi.fn(async () => false),
  onMoneyEvent: vi.fn(async () => false),
}));
vi.mock('./refunds', async (actual) => ({
  ...(await actual<typeof import('./refunds')>()),
  onChargeRefunded: moves.onChargeRefunded,
  onRefundUpdated: moves.onRefundUpdated,
  onDispute: moves.onDispute,
}));
vi.mock('./batch-events', () => ({
  onBatchPayoutPaid: moves.onBatchPayoutPaid,
  onBatchPayoutFailed: moves.onBatchPayoutFailed,
}));
vi.mock('./money-movement', () => ({ onMoneyEvent: moves.onMoneyEvent }));

const order = { orderID: 'RP-00000001', refundedCents: 1500, totalCents: 5000 };

function saleDeps(stored: typeof order | null = order) {
  const told: SaleNotice[] = [];
  const deps = {
    store: { orderOfPayment: vi.fn(async () => stored ?? undefined) } as unknown as RefundDeps['store'],
    gateway: {} as RefundDeps['gateway'],
    now: () => Date.parse('2026-12-01T00:00:00Z'),
    tell: async (notice: SaleNotice) => void told.push(notice),
  };
  return { deps, told };
}

const refundUpdated = (status: string, paymentIntentId: string | null = 'pi_1'): SaleEvent => ({
  id: 'evt_r',
  kind: 'refund.updated',
  refund: {
    refundId: 're_1',
    paymentIntentId,
    amountCents: 1000,
    status,
    pendingReason: null,
    failureReason: status === 'failed' ? 'expired_or_canceled_card' : null,
  },
});

const dispute = (kind: 'charge.dispute.created' | 'charge.dispute.closed', paymentIntentId: string | null = 'pi_1') =>
  ({
    id: 'evt_d',
    kind,
    dispute: {
      disputeId: 'dp_1',
      chargeId: 'ch_1',
      paymentIntentId,
      amountCents: 5000,
      reason: 'fraudulent',
      status: 'needs_response',
    },
  }) as SaleEvent;

beforeEach(() => vi.clearAllMocks());

describe('onSaleEvent: what a refund or dispute event tells the admins', () => {
  it('a refund failing for the first time: the failure as applied, in words', async () => {
    moves.onRefundUpdated.mockResolvedValueOnce({
      orderId: 'o1',
      orderID: 'RP-00000001',
      amountCents: 1000,
      refundedCents: 500,
      totalCents: 5000,
      commission: 'The commission got its share back.',
      backInList: 'Not ordered yet',
    });
    const { deps, told } = saleDeps();
    await onSaleEvent(deps, refundUpdated('failed'));
    expect(told).toEqual([
      {
        kind: 'refund-failed',
        facts: {
          refundId: 're_1',
          orderID: 'RP-00000001',
          amountCents: 1000,
          failure: expect.stringContaining('expired or cancelled'),
          refundedCents: 500,
          totalCents: 5000,
          commission: 'The commission got its share back.',
          backInList: 'Not ordered yet',
        },
      },
    ]);
    expect(deps.store.orderOfPayment).not.toHaveBeenCalled();
  });

  it('a second event about one failure: the order as it stands, and the commission set right before', async () => {
    const { deps, told } = saleDeps();
    await onSaleEvent(deps, refundUpdated('failed'));
    expect(told).toEqual([
      {
        kind: 'refund-failed',
        facts: expect.objectContaining({
          orderID: 'RP-00000001',
          amountCents: 1000,
          refundedCents: 1500,
          totalCents: 5000,
          commission: FAILURE_APPLIED_BEFORE,
        }),
      },
    ]);
  });

  it('a failed refund of no order the portal has, or a refund that did not fail: no mail', async () => {
    const none = saleDeps(null);
    await onSaleEvent(none.deps, refundUpdated('failed'));
    const succeeded = saleDeps();
    await onSaleEvent(succeeded.deps, refundUpdated('succeeded'));
    expect([...none.told, ...succeeded.told]).toEqual([]);
    expect(moves.onRefundUpdated).toHaveBeenCalledTimes(2);
  });

  it('charge.refunded moves the ledger and tells no one', async () => {
    const { deps, told } = saleDeps();
    await onSaleEvent(deps, { id: 'evt_c', kind: 'charge.refunded', chargeId: 'ch_1', paymentIntentId: 'pi_1' });
    expect(moves.onChargeRefunded).toHaveBeenCalledWith(deps, 'pi_1');
    expect(told).toEqual([]);
  });

  it('a dispute opened: applied first, then the admins told, naming its order (or none)', async () => {
    const known = saleDeps();
    await onSaleEvent(known.deps, dispute('charge.dispute.created'));
    const unknown = saleDeps();
    await onSaleEvent(unknown.deps, dispute('charge.dispute.created', null));
    expect(moves.onDispute).toHaveBeenCalledTimes(2);
    expect(known.told).toEqual([
      {
        kind: 'dispute-opened',
        facts: {
          eventId: 'evt_d',
          disputeId: 'dp_1',
          chargeId: 'ch_1',
          amountCents: 5000,
          reason: 'fraudulent',
          evidenceDueBy: null,
          orderID: 'RP-00000001',
        },
      },
    ]);
    expect(unknown.told).toEqual([{ kind: 'dispute-opened', facts: expect.objectContaining({ orderID: null }) }]);
  });

  it('a dispute closed is applied and mails no admin', async () => {
    const { deps, told } = saleDeps();
    await onSaleEvent(deps, dispute('charge.dispute.closed'));
    expect(moves.onDispute).toHaveBeenCalledOnce();
    expect(told).toEqual([]);
  });

  it('a notice that cannot be sent yet fails the event (Stripe delivers it again)', async () => {
    const { deps } = saleDeps();
    const busy = { ...deps, tell: async () => Promise.reject(new Error('busy')) };
    await expect(onSaleEvent(busy, dispute('charge.dispute.created'))).rejects.toThrow('busy');
  });
});

const batch = { batchId: 'b1', memberId: 'm1', state: 'payout_failed', payoutId: 'po_1' } as MemberBatch;

function payoutDeps() {
  const told: PayoutNotice[] = [];
  const get = vi.fn(async () => batch);
  const deps = {
    money: {} as never,
    batches: { get } as unknown as PayoutBatchStore,
    now: () => 0,
    tell: async (notice: PayoutNotice) => void told.push(notice),
  };
  return { deps, told, get };
}

const payout = (kind: 'payout.paid' | 'payout.failed', metadata: Record<string, string>): MoneyEvent => ({
  id: 'evt_p',
  kind,
  payoutId: 'po_1',
  accountId: 'acct_1',
  metadata,
  failure: kind === 'payout.failed' ? 'The bank account is closed.' : null,
  failureCode: kind === 'payout.failed' ? 'account_closed' : null,
  created: 1_700_000_000,
});

describe("onPayoutEvent: a payout's move, then whom it tells", () => {
  it("a batch's payout paid: the batch recorded, then the member's one mail", async () => {
    moves.onBatchPayoutPaid.mockResolvedValueOnce(batch);
    const { deps, told } = payoutDeps();
    expect(await onPayoutEvent(deps, payout('payout.paid', { batchId: 'b1', memberId: 'm1' }))).toBe(true);
    expect(told).toEqual([{ kind: 'batch-on-its-way', batch }]);
    expect(moves.onMoneyEvent).not.toHaveBeenCalled();
  });

  it("a batch's payout paid that is not the batch's (any more): no mail, not moved", async () => {
    const { deps, told } = payoutDeps();
    expect(await onPayoutEvent(deps, payout('payout.paid', { batchId: 'b1', memberId: 'm1' }))).toBe(false);
    expect(told).toEqual([]);
  });

  it("a batch's payout failed: the batch's commissions freed, then the failure told with the batch", async () => {
    moves.onBatchPayoutFailed.mockResolvedValueOnce(true);
    const { deps, told, get } = payoutDeps();
    const event = payout('payout.failed', { batchId: 'b1', memberId: 'm1' });
    expect(await onPayoutEvent(deps, event)).toBe(true);
    expect(get).toHaveBeenCalledWith('b1', 'm1');
    expect(told).toEqual([{ kind: 'failed', event, batch, moved: true }]);
  });

  it("a commission's payout failed: money-movement moves it; told without a batch, even when not moved", async () => {
    const { deps, told, get } = payoutDeps();
    const event = payout('payout.failed', { commissionId: 'c1' });
    expect(await onPayoutEvent(deps, event)).toBe(false);
    expect(moves.onMoneyEvent).toHaveBeenCalledWith(deps.money, event);
    expect(get).not.toHaveBeenCalled();
    expect(told).toEqual([{ kind: 'failed', event, moved: false }]);
  });

  it('a commission\'s payout paid: the member\'s "on its way"; a transfer tells no one', async () => {
    moves.onMoneyEvent.mockResolvedValueOnce(true);
    const { deps, told } = payoutDeps();
    expect(await onPayoutEvent(deps, payout('payout.paid', { commissionId: 'c1' }))).toBe(true);
    await onPayoutEvent(deps, {
      id: 'evt_t',
      kind: 'transfer.created',
      transferId: 'tr_1',
      metadata: { commissionId: 'c1' },
      created: 1,
    });
    expect(told).toEqual([{ kind: 'on-its-way', commissionId: 'c1' }]);
  });
});
