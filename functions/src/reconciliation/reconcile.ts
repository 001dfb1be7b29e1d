import { dayStart } from '@portal/shared/api/reconcile-period';
import { batchKey, compare, type Difference, type Snapshot } from './compare';
import type {
  LedgerBatch,
  LedgerCommission,
  LedgerMember,
  LedgerOrder,
  LedgerRecords,
  StripeCharge,
  StripePayout,
  StripeRecords,
  StripeRefund,
  StripeTransfer,
} from './records';
import { mapLimit } from '@portal/shared/domain/map-limit';

/**
 * Reconciliation (issue 27): our ledger against Stripe's over a period of whole UTC days. Both
 * sides are read by keys, never by a scan (docs/decisions/0210-reconciliation-by-keys.md):
 *
 * - Stripe: the charges, refunds and transfers created in the period (every page of each list,
 *   bounded by `created`), every connected account's payouts of the period (`Stripe-Account`);
 * - ours: the orders created in the period (one key range of the orders list), and every record
 *   the objects of either side lead to by key: a payment to its order (the payment claim), a
 *   transfer's or payout's metadata to its commission or payout batch, an order to its commission,
 *   a commission to its batch and member;
 * - then every Stripe object our records name that the period's lists did not hold is read by its
 *   id (a commission sold in the period may be paid after it), so "in our ledger, not in Stripe"
 *   is a fact, not a matter of dates.
 */

export interface ReconcileDeps {
  stripe: StripeRecords;
  ledger: LedgerRecords;
}

export interface Reconciliation {
  from: string;
  to: string;
  checked: {
    charges: number;
    refunds: number;
    transfers: number;
    reversals: number;
    payouts: number;
    accounts: number;
    orders: number;
    commissions: number;
  };
  differences: Difference[];
}

const DAY_MS = 86_400_000;
/** Reads in flight at once on each side: Stripe allows 25 reads a second in test mode, 100 live. */
const PARALLEL = 8;

const unique = <T>(items: Iterable<T | null | undefined>): T[] => [
  ...new Set([...items].filter((item): item is T => item !== null && item !== undefined && item !== '')),
];

/** `from` and `to` are valid YYYY-MM-DD days, `from` ≤ `to` (the call's schema checked them). */
export async function reconcile(deps: ReconcileDeps, from: string, to: string): Promise<Reconciliation> {
  const fromMs = dayStart(from);
  const endMs = dayStart(to) + DAY_MS;
  const period = { gte: Math.floor(fromMs / 1000), lte: Math.floor(endMs / 1000) - 1 };
  const { stripe, ledger } = deps;

  // 1. Both sides' lists of the period.
  const [charges, refunds, transfers, accounts, periodOrders] = await Promise.all([
    stripe.charges(period),
    stripe.refunds(period),
    stripe.transfers(period),
    stripe.accounts(),
    ledger.ordersCreated(new Date(fromMs).toISOString(), new Date(endMs).toISOString()),
  ]);
  const payouts = (await mapLimit(accounts, PARALLEL, (account) => stripe.payouts(account.id, period))).flat();

  const orders = new Map<string, LedgerOrder>(periodOrders.map((order) => [order.id, order]));
  const commissions = new Map<string, LedgerCommission>();
  const batches = new Map<string, LedgerBatch>();
  const members = new Map<string, LedgerMember>();
  const known = {
    charges: new Map<string, StripeCharge>(charges.map((charge) => [charge.id, charge])),
    refunds: new Map<string, StripeRefund>(refunds.map((refund) => [refund.id, refund])),
    transfers: new Map<string, StripeTransfer>(transfers.map((transfer) => [transfer.id, transfer])),
    payouts: new Map<string, StripePayout>(payouts.map((payout) => [payout.id, payout])),
    accounts: new Map<string, string | null>(accounts.map((account) => [account.id, account.userId])),
  };

  const loadOrders = async (ids: Iterable<string | null | undefined>) => {
    const missing = unique(ids).filter((id) => !orders.has(id));
    for (const order of await mapLimit(missing, PARALLEL, (id) => ledger.order(id))) {
      if (order) orders.set(order.id, order);
    }
  };
  const loadCommissions = async (ids: Iterable<string | null | undefined>) => {
    const missing = unique(ids).filter((id) => !commissions.has(id));
    for (const commission of await mapLimit(missing, PARALLEL, (id) => ledger.commission(id))) {
      if (commission) commissions.set(commission.id, commission);
    }
  };
  const loadBatches = async (pairs: Iterable<[string | undefined | null, string | undefined | null]>) => {
    const wanted = unique(
      [...pairs].map(([batchId, memberId]) => (batchId && memberId ? batchKey(batchId, memberId) : null)),
    );
    const missing = wanted.filter((key) => !batches.has(key));
    const found = await mapLimit(missing, PARALLEL, (key) => {
      const [batchId, memberId] = key.split('#') as [string, string];
      return ledger.batch(batchId, memberId);
    });
    for (const batch of found) if (batch) batches.set(batchKey(batch.batchId, batch.memberId), batch);
  };

  // 2. Stripe's payments to our orders (the payment claim), and the period's orders' own commissions.
  const paidOrders = new Set([...orders.values()].map((order) => order.paymentIntentId));
  const payments = unique([...charges, ...refunds].map((object) => object.paymentIntentId)).filter(
    (paymentIntentId) => !paidOrders.has(paymentIntentId),
  );
  for (const order of await mapLimit(payments, PARALLEL, (paymentIntentId) => ledger.orderOfPayment(paymentIntentId))) {
    if (order) orders.set(order.id, order);
  }
  const metadataOf = [...transfers, ...payouts].map((object) => object.metadata);
  await loadCommissions([
    ...[...orders.values()].map((order) => order.commissionId),
    ...metadataOf.map((metadata) => metadata.commissionId),
  ]);
  await loadBatches(metadataOf.map((metadata) => [metadata.batchId, metadata.memberId]));
  // A commission's order (its number, its refunds) and its batch.
  await loadOrders([...commissions.values()].map((commission) => commission.orderId));
  await loadBatches(
    [...commissions.values()].flatMap((commission): [string | null, string][] => [
      [commission.batchId, commission.memberId],
      [commission.settledBatchId, commission.memberId],
    ]),
  );

  // 3. The members: of the commissions and batches, and of the connected accounts.
  const loadMembers = async () => {
    const ids = unique([
      ...[...commissions.values()].map((commission) => commission.memberId),
      ...[...batches.values()].map((batch) => batch.memberId),
      ...accounts.map((account) => account.userId),
    ]).filter((id) => !members.has(id));
    for (const member of await mapLimit(ids, PARALLEL, (id) => ledger.member(id))) {
      if (member) members.set(member.id, member);
    }
  };

  // 4. Every Stripe object our records name that the period's lists did not hold, by its id.
  const fetch = async <T extends { id: string }>(
    into: Map<string, T>,
    ids: Iterable<string | null | undefined>,
    read: (id: string) => Promise<T | null>,
  ) => {
    const missing = unique(ids).filter((id) => !into.has(id));
    for (const object of await mapLimit(missing, PARALLEL, read)) if (object) into.set(object.id, object);
  };
  const fetchNamed = async () => {
    const allOrders = [...orders.values()];
    await Promise.all([
      fetch(
        known.charges,
        allOrders.map((order) => order.chargeId),
        (id) => stripe.charge(id),
      ),
      fetch(
        known.refunds,
        allOrders.flatMap((order) => order.refundIds.filter((id) => id.startsWith('re_') || id.startsWith('pyr_'))),
        (id) => stripe.refund(id),
      ),
      fetch(
        known.transfers,
        [
          ...[...commissions.values()].map((commission) => commission.transferId),
          ...[...batches.values()].flatMap((batch) => [
            ...batch.transfers.map((transfer) => transfer.id),
            batch.topUpTransferId ?? null,
            batch.feeBackTransferId ?? null,
          ]),
        ],
        (id) => stripe.transfer(id),
      ),
    ]);
    // A card order recorded without its charge id: its payment's charge.
    const charged = new Set([...known.charges.values()].map((charge) => charge.paymentIntentId));
    const paidWithoutCharge = allOrders.filter(
      (order) => order.paymentIntentId && !order.chargeId && !charged.has(order.paymentIntentId),
    );
    const found = await mapLimit(paidWithoutCharge, PARALLEL, (order) =>
      stripe.chargeOfPayment(order.paymentIntentId!),
    );
    for (const charge of found) if (charge) known.charges.set(charge.id, charge);
    // Payouts live on the member's connected account.
    const payoutsNamed = [
      ...[...commissions.values()].map((commission): [string | null, string] => [
        commission.payoutId,
        commission.memberId,
      ]),
      ...[...batches.values()].map((batch): [string | null, string] => [batch.payoutId, batch.memberId]),
    ].filter((pair): pair is [string, string] => pair[0] !== null && !known.payouts.has(pair[0]));
    const fetchedPayouts = await mapLimit(unique(payoutsNamed.map((pair) => pair.join(' '))), PARALLEL, (pair) => {
      const [payoutId, memberId] = pair.split(' ') as [string, string];
      const accountId = members.get(memberId)?.stripeID;
      return accountId ? stripe.payout(accountId, payoutId) : Promise.resolve(null);
    });
    for (const payout of fetchedPayouts) if (payout) known.payouts.set(payout.id, payout);
  };
  await loadMembers();
  await fetchNamed();

  // 5. The reversals' commissions and orders (a batch's transfer carries commissions not read yet), and what they name.
  const reversalMetadata = [...known.transfers.values()].flatMap((transfer) =>
    transfer.reversals.map((r) => r.metadata),
  );
  const before = commissions.size + orders.size;
  await loadCommissions(reversalMetadata.map((metadata) => metadata.commissionId));
  await loadOrders([
    ...reversalMetadata.map((metadata) => metadata.orderId),
    ...[...commissions.values()].map((commission) => commission.orderId),
  ]);
  if (commissions.size + orders.size > before) {
    await loadMembers();
    await fetchNamed();
  }

  // 6. What clawbacks left with the members (a refund after payout is owed, not reversed).
  const clawedBack = new Map<string, number>();
  const clawbackMembers = unique(
    [...commissions.values()].filter((commission) => commission.transferId).map((commission) => commission.memberId),
  );
  for (const byCommission of await mapLimit(clawbackMembers, PARALLEL, (id) => ledger.clawedBack(id))) {
    for (const [commissionId, cents] of byCommission) clawedBack.set(commissionId, cents);
  }

  const snapshot: Snapshot = {
    period: { charges, refunds, transfers, payouts },
    stripe: known,
    ledger: { orders, commissions, batches, members, clawedBack },
  };
  return {
    from,
    to,
    checked: {
      charges: known.charges.size,
      refunds: known.refunds.size,
      transfers: known.transfers.size,
      reversals: [...known.transfers.values()].reduce((sum, transfer) => sum + transfer.reversals.length, 0),
      payouts: known.payouts.size,
      accounts: accounts.length,
      orders: orders.size,
      commissions: commissions.size,
    },
    differences: compare(snapshot),
  };
}
