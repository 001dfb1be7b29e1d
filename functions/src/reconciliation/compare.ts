import { formatMoney } from '@portal/shared/domain/format';
import type {
  LedgerBatch,
  LedgerCommission,
  LedgerMember,
  LedgerOrder,
  StripeCharge,
  StripePayout,
  StripeRefund,
  StripeTransfer,
} from './records';

/** One difference between the two ledgers, in words, with the ids on both sides. */
export interface Difference {
  kind: 'missing_in_ledger' | 'missing_in_stripe' | 'amount' | 'status';
  subject: 'charge' | 'refund' | 'transfer' | 'reversal' | 'payout';
  text: string;
  stripeIds: string[];
  ledgerIds: string[];
}

/**
 * Both sides as read for one period. `period` holds Stripe's objects created in it (each must be
 * in our ledger); `stripe` every Stripe object known by id, those of the period and those our
 * records named (an id our ledger names that is absent here is not at Stripe); `ledger` our
 * records: the orders of the period and every record either side led to.
 */
export interface Snapshot {
  period: {
    charges: StripeCharge[];
    refunds: StripeRefund[];
    transfers: StripeTransfer[];
    payouts: StripePayout[];
  };
  stripe: {
    charges: Map<string, StripeCharge>;
    refunds: Map<string, StripeRefund>;
    transfers: Map<string, StripeTransfer>;
    payouts: Map<string, StripePayout>;
    /** A connected account → the member it was made for. */
    accounts: Map<string, string | null>;
  };
  ledger: {
    orders: Map<string, LedgerOrder>;
    commissions: Map<string, LedgerCommission>;
    /** Keyed `<batchId>#<memberId>`. */
    batches: Map<string, LedgerBatch>;
    members: Map<string, LedgerMember>;
    /** A commission id → what clawbacks took of it (the member keeps it, owed). */
    clawedBack: Map<string, number>;
  };
}

export const batchKey = (batchId: string, memberId: string): string => `${batchId}#${memberId}`;

const day = (seconds: number): string => new Date(seconds * 1000).toISOString().slice(0, 10);
const money = formatMoney;
/** A payout that moved no money, or will not. */
const FAILED_PAYOUT = new Set(['failed', 'canceled']);
/** A refund that took or is taking money back. */
const LIVE_REFUND = new Set(['succeeded', 'pending', 'requires_action']);
/** A lost dispute is applied as a refund under the dispute's id; Stripe's charge does not count it as refunded. */
const isDisputeId = (id: string): boolean => id.startsWith('dp_') || id.startsWith('du_');

/** Compares the two sides: every difference, Stripe's objects first, then our records', in a stable order. */
export function compare(snapshot: Snapshot): Difference[] {
  const { stripe, ledger } = snapshot;
  const differences: Difference[] = [];
  const add = (difference: Difference) => void differences.push(difference);

  const ordersByPayment = new Map<string, LedgerOrder>();
  for (const order of ledger.orders.values()) {
    if (order.paymentIntentId) ordersByPayment.set(order.paymentIntentId, order);
  }
  const chargesByPayment = new Map<string, StripeCharge>();
  for (const charge of stripe.charges.values()) {
    if (charge.paymentIntentId && charge.status === 'succeeded') chargesByPayment.set(charge.paymentIntentId, charge);
  }
  const transfersNamed = new Set<string>();
  const payoutsNamed = new Set<string>();
  for (const commission of ledger.commissions.values()) {
    if (commission.transferId) transfersNamed.add(commission.transferId);
    if (commission.payoutId) payoutsNamed.add(commission.payoutId);
  }
  for (const batch of ledger.batches.values()) {
    for (const transfer of batch.transfers) transfersNamed.add(transfer.id);
    if (batch.topUpTransferId) transfersNamed.add(batch.topUpTransferId);
    if (batch.feeBackTransferId) transfersNamed.add(batch.feeBackTransferId);
    if (batch.payoutId) payoutsNamed.add(batch.payoutId);
  }

  const memberOf = (memberId: string | null | undefined): LedgerMember | undefined =>
    memberId ? ledger.members.get(memberId) : undefined;
  /** "acct_… (member Jane Doe)", or the account alone when no member of ours has it. */
  const account = (accountId: string | null): string => {
    if (!accountId) return 'no account';
    const member = memberOf(stripe.accounts.get(accountId));
    return member ? `${accountId} (member ${member.name})` : accountId;
  };
  const memberWords = (memberId: string | null | undefined): string => {
    const member = memberOf(memberId);
    return member ? `member ${member.name}` : `member ${memberId ?? 'unknown'}`;
  };
  const commissionWords = (commission: LedgerCommission, start = true): string =>
    `${start ? 'C' : 'c'}ommission ${commission.id} (order ${commission.orderID}, ${memberWords(commission.memberId)})`;

  const context: Context = {
    snapshot,
    stripe,
    ledger,
    add,
    ordersByPayment,
    chargesByPayment,
    transfersNamed,
    payoutsNamed,
    memberOf,
    account,
    memberWords,
    commissionWords,
    refundReported: new Set<string>(),
  };
  for (const part of [
    stripeCharges,
    stripeRefunds,
    stripeTransfers,
    stripeReversals,
    stripePayouts,
    ledgerOrders,
    ledgerCommissions,
    ledgerBatches,
  ]) {
    part(context);
  }
  return differences;
}

/** What every part of the comparison reads: both sides, their indexes, the words for members, and where a difference goes. */
interface Context {
  snapshot: Snapshot;
  stripe: Snapshot['stripe'];
  ledger: Snapshot['ledger'];
  add: (difference: Difference) => void;
  ordersByPayment: Map<string, LedgerOrder>;
  chargesByPayment: Map<string, StripeCharge>;
  transfersNamed: Set<string>;
  payoutsNamed: Set<string>;
  memberOf: (memberId: string | null | undefined) => LedgerMember | undefined;
  account: (accountId: string | null) => string;
  memberWords: (memberId: string | null | undefined) => string;
  commissionWords: (commission: LedgerCommission, start?: boolean) => string;
  /** The orders a refund difference was reported for already (their own refund check is skipped). */
  refundReported: Set<string>;
}

/** Stripe's charges of the period: each succeeded one is an order of ours. */
function stripeCharges(context: Context): void {
  const { add, ordersByPayment, snapshot } = context;
  for (const charge of snapshot.period.charges) {
    if (charge.status !== 'succeeded') continue;
    if (charge.paymentIntentId && ordersByPayment.has(charge.paymentIntentId)) continue;
    add({
      kind: 'missing_in_ledger',
      subject: 'charge',
      text: `Charge ${charge.id} of ${money(charge.amountCents)} on ${day(charge.created)}${
        charge.paymentIntentId ? ` (payment ${charge.paymentIntentId})` : ''
      } is in Stripe but not in our ledger.`,
      stripeIds: [charge.id, ...(charge.paymentIntentId ? [charge.paymentIntentId] : [])],
      ledgerIds: [],
    });
  }
}

/** Stripe's refunds of the period: each live one is applied to its order. */
function stripeRefunds(context: Context): void {
  const { add, ordersByPayment, refundReported, snapshot } = context;
  for (const refund of snapshot.period.refunds) {
    if (!LIVE_REFUND.has(refund.status)) continue;
    const order = refund.paymentIntentId ? ordersByPayment.get(refund.paymentIntentId) : undefined;
    if (order?.refundIds.includes(refund.id)) continue;
    if (order) refundReported.add(order.id);
    add({
      kind: 'missing_in_ledger',
      subject: 'refund',
      text: `Refund ${refund.id} of ${money(refund.amountCents)} of charge ${refund.chargeId ?? 'unknown'}${
        order ? ` (order ${order.orderID})` : ''
      } on ${day(refund.created)} is in Stripe but not in our ledger.`,
      stripeIds: [refund.id, ...(refund.chargeId ? [refund.chargeId] : [])],
      ledgerIds: order ? [order.orderID] : [],
    });
  }
}

/** Stripe's transfers of the period: each is a commission's or a payout batch's. */
function stripeTransfers(context: Context): void {
  const { ledger, add, transfersNamed, account, snapshot } = context;
  for (const transfer of snapshot.period.transfers) {
    if (transfersNamed.has(transfer.id)) continue;
    const { commissionId, batchId, memberId } = transfer.metadata;
    const commission = commissionId ? ledger.commissions.get(commissionId) : undefined;
    const batch = batchId && memberId ? ledger.batches.get(batchKey(batchId, memberId)) : undefined;
    const madeFor = commissionId
      ? `, made for commission ${commissionId}${commission ? ` (order ${commission.orderID}), which names ${commission.transferId ?? 'no transfer'}` : ', which our ledger does not have'},`
      : batchId
        ? `, made for payout batch ${batchId}${batch ? `, which names ${batch.transfers.map((t) => t.id).join(', ') || 'no transfer'}` : ', which our ledger does not have'},`
        : '';
    add({
      kind: 'missing_in_ledger',
      subject: 'transfer',
      text: `Transfer ${transfer.id} of ${money(transfer.amountCents)} to ${account(transfer.destination)} on ${day(
        transfer.created,
      )}${madeFor} is in Stripe but not in our ledger.`,
      stripeIds: [transfer.id, ...(transfer.destination ? [transfer.destination] : [])],
      ledgerIds: [...(commissionId ? [commissionId] : []), ...(batchId ? [batchId] : [])],
    });
  }
}

/** Every reversal of the transfers known: each takes back a refund's share that our ledger applied. */
function stripeReversals(context: Context): void {
  const { stripe, ledger, add, account } = context;
  for (const transfer of stripe.transfers.values()) {
    for (const reversal of transfer.reversals) {
      const { commissionId, orderId, refundId } = reversal.metadata;
      const commission = commissionId ? ledger.commissions.get(commissionId) : undefined;
      const order = orderId
        ? ledger.orders.get(orderId)
        : commission
          ? ledger.orders.get(commission.orderId)
          : undefined;
      if (commission && refundId && order?.refundIds.includes(refundId)) continue;
      add({
        kind: 'missing_in_ledger',
        subject: 'reversal',
        text: `Reversal ${reversal.id} of ${money(reversal.amountCents)} of transfer ${transfer.id} to ${account(
          transfer.destination,
        )} on ${day(reversal.created)}${
          commissionId && refundId
            ? `, for refund ${refundId} of commission ${commissionId}${order ? ` (order ${order.orderID})` : ''},`
            : ''
        } is in Stripe but not in our ledger.`,
        stripeIds: [reversal.id, transfer.id, ...(refundId ? [refundId] : [])],
        ledgerIds: [...(commissionId ? [commissionId] : []), ...(order ? [order.orderID] : [])],
      });
    }
  }
}

/** Stripe's payouts of the period, on the members' accounts: each is a commission's or a batch's. */
function stripePayouts(context: Context): void {
  const { ledger, add, payoutsNamed, account, snapshot } = context;
  for (const payout of snapshot.period.payouts) {
    if (payoutsNamed.has(payout.id)) continue;
    const { commissionId, batchId, memberId } = payout.metadata;
    const commission = commissionId ? ledger.commissions.get(commissionId) : undefined;
    const batch = batchId && memberId ? ledger.batches.get(batchKey(batchId, memberId)) : undefined;
    // A failed payout is one our ledger let go of (the commission back in Stripe, the batch payout_failed).
    if (FAILED_PAYOUT.has(payout.status) && (commission || batch || !(commissionId || batchId))) continue;
    const madeFor = commissionId
      ? `, made for commission ${commissionId}${commission ? ` (order ${commission.orderID}), which is ${commission.status} and names ${commission.payoutId ?? 'no payout'}` : ', which our ledger does not have'},`
      : batchId
        ? `, made for payout batch ${batchId}${batch ? `, which names ${batch.payoutId ?? 'no payout'}` : ', which our ledger does not have'},`
        : '';
    add({
      kind: 'missing_in_ledger',
      subject: 'payout',
      text: `Payout ${payout.id} of ${money(payout.amountCents)} from ${account(payout.accountId)} on ${day(
        payout.created,
      )} (${payout.status})${madeFor} is in Stripe but not in our ledger.`,
      stripeIds: [payout.id, payout.accountId],
      ledgerIds: [...(commissionId ? [commissionId] : []), ...(batchId ? [batchId] : [])],
    });
  }
}

/** Our orders: their charge and refunds at Stripe, in the same amounts. */
function ledgerOrders(context: Context): void {
  const { stripe, ledger, add, chargesByPayment, refundReported } = context;
  for (const order of ledger.orders.values()) {
    if (!order.paymentIntentId) continue;
    const charge =
      (order.chargeId ? stripe.charges.get(order.chargeId) : undefined) ?? chargesByPayment.get(order.paymentIntentId);
    if (!charge || charge.status !== 'succeeded') {
      const named = order.chargeId ?? `of payment ${order.paymentIntentId}`;
      add({
        kind: charge ? 'status' : 'missing_in_stripe',
        subject: 'charge',
        text: charge
          ? `Order ${order.orderID} is paid by card in our ledger but charge ${charge.id} is ${charge.status} in Stripe.`
          : `Order ${order.orderID} is paid by card in our ledger (charge ${named}) but the charge is not in Stripe.`,
        stripeIds: [...(order.chargeId ? [order.chargeId] : []), order.paymentIntentId],
        ledgerIds: [order.orderID],
      });
      continue;
    }
    if (charge.amountCents !== order.totalCents) {
      add({
        kind: 'amount',
        subject: 'charge',
        text: `Order ${order.orderID} is ${money(order.totalCents)} in our ledger but its charge ${charge.id} is ${money(
          charge.amountCents,
        )} in Stripe.`,
        stripeIds: [charge.id],
        ledgerIds: [order.orderID],
      });
    }
    for (const refundId of order.refundIds) {
      if (isDisputeId(refundId)) continue;
      const refund = stripe.refunds.get(refundId);
      if (refund && LIVE_REFUND.has(refund.status)) continue;
      refundReported.add(order.id);
      add({
        kind: refund ? 'status' : 'missing_in_stripe',
        subject: 'refund',
        text: refund
          ? `Refund ${refund.id} of ${money(refund.amountCents)} is applied to order ${order.orderID} in our ledger but is ${refund.status} in Stripe.`
          : `Order ${order.orderID} has refund ${refundId} applied in our ledger, which is not in Stripe.`,
        stripeIds: [refundId, charge.id],
        ledgerIds: [order.orderID],
      });
    }
    // Refunds and lost disputes together taking back more than the charge: the customer was paid twice.
    const lost = charge.lostDisputes ?? [];
    const lostCents = lost.reduce((sum, dispute) => sum + dispute.amountCents, 0);
    const takenBack = charge.refundedCents + lostCents;
    if (lost.length && takenBack > charge.amountCents) {
      add({
        kind: 'amount',
        subject: 'refund',
        text: `Order ${order.orderID} is refunded beyond its payment in Stripe: refunds of ${money(
          charge.refundedCents,
        )} and a lost dispute of ${money(lostCents)}, ${money(takenBack)} taken back of a ${money(
          charge.amountCents,
        )} charge (${money(takenBack - charge.amountCents)} more than was paid). Ask the customer to pay the difference back, or count it as a loss.`,
        stripeIds: [charge.id, ...lost.map((dispute) => dispute.id)],
        ledgerIds: [order.orderID],
      });
    }
    // The refunded total, unless a refund was reported above (one cause, one line) or a lost dispute counts in ours.
    if (
      !refundReported.has(order.id) &&
      !order.refundIds.some(isDisputeId) &&
      charge.refundedCents !== order.refundedCents
    ) {
      add({
        kind: 'amount',
        subject: 'refund',
        text: `Order ${order.orderID} has ${money(order.refundedCents)} refunded in our ledger but its charge ${
          charge.id
        } has ${money(charge.refundedCents)} refunded in Stripe.`,
        stripeIds: [charge.id],
        ledgerIds: [order.orderID],
      });
    }
  }
}

/** Our commissions: their transfer and payout at Stripe, to the member's account, in the same amounts. */
function ledgerCommissions(context: Context): void {
  const { stripe, ledger, add, memberOf, commissionWords } = context;
  for (const commission of ledger.commissions.values()) {
    const member = memberOf(commission.memberId);
    const kept = commission.amountCents + (ledger.clawedBack.get(commission.id) ?? 0);
    if (commission.transferId) {
      const transfer = stripe.transfers.get(commission.transferId);
      if (!transfer) {
        add({
          kind: 'missing_in_stripe',
          subject: 'transfer',
          text: `${commissionWords(commission)} names transfer ${commission.transferId} in our ledger, which is not in Stripe.`,
          stripeIds: [commission.transferId],
          ledgerIds: [commission.id, commission.orderID],
        });
      } else {
        if (member?.stripeID && transfer.destination !== member.stripeID) {
          add({
            kind: 'status',
            subject: 'transfer',
            text: `Transfer ${transfer.id} of ${commissionWords(commission, false)} went to ${transfer.destination ?? 'no account'} in Stripe, but the member's account is ${member.stripeID} in our ledger.`,
            stripeIds: [transfer.id, ...(transfer.destination ? [transfer.destination] : []), member.stripeID],
            ledgerIds: [commission.id],
          });
        }
        // A commission's own transfer (a batch's carries several: compared as the batch's below).
        const net = transfer.amountCents - transfer.reversedCents;
        if (transfer.metadata.commissionId === commission.id && net !== kept) {
          add({
            kind: 'amount',
            subject: 'transfer',
            text: `Transfer ${transfer.id} of ${commissionWords(commission, false)} is ${money(net)} in Stripe (${money(
              transfer.amountCents,
            )} less ${money(transfer.reversedCents)} reversed) but the commission keeps ${money(kept)} in our ledger.`,
            stripeIds: [transfer.id],
            ledgerIds: [commission.id, commission.orderID],
          });
        }
      }
    } else if ((commission.status === 'in_stripe' || commission.status === 'paid') && !commission.settledBatchId) {
      add({
        kind: 'missing_in_stripe',
        subject: 'transfer',
        text: `${commissionWords(commission)} is ${commission.status === 'paid' ? 'paid' : 'in Stripe'} in our ledger but names no transfer.`,
        stripeIds: [],
        ledgerIds: [commission.id, commission.orderID],
      });
    }
    if (commission.payoutId) {
      const payout = stripe.payouts.get(commission.payoutId);
      if (!payout) {
        add({
          kind: 'missing_in_stripe',
          subject: 'payout',
          text: `${commissionWords(commission)} names payout ${commission.payoutId} in our ledger, which is not in Stripe${
            member?.stripeID ? ` on ${member.stripeID}` : ''
          }.`,
          stripeIds: [commission.payoutId, ...(member?.stripeID ? [member.stripeID] : [])],
          ledgerIds: [commission.id, commission.orderID],
        });
        continue;
      }
      if (commission.status === 'paid' && FAILED_PAYOUT.has(payout.status)) {
        add({
          kind: 'status',
          subject: 'payout',
          text: `${commissionWords(commission)} is paid in our ledger but payout ${payout.id} of ${money(
            payout.amountCents,
          )} is ${payout.status} in Stripe${payout.failure ? ` (${payout.failure})` : ''}.`,
          stripeIds: [payout.id, payout.accountId],
          ledgerIds: [commission.id, commission.orderID],
        });
      }
      const expected = kept - commission.nettedCents;
      if (payout.metadata.commissionId === commission.id && payout.amountCents !== expected) {
        add({
          kind: 'amount',
          subject: 'payout',
          text: `Payout ${payout.id} of ${commissionWords(commission, false)} is ${money(payout.amountCents)} in Stripe but ${money(
            expected,
          )} in our ledger.`,
          stripeIds: [payout.id],
          ledgerIds: [commission.id, commission.orderID],
        });
      }
    }
  }
}

/** Our payout batches: one transfer per charge and one payout each, as recorded. */
function ledgerBatches(context: Context): void {
  const { stripe, ledger, add, memberWords } = context;
  for (const batch of ledger.batches.values()) {
    const who = `Payout batch ${batch.batchId} (${memberWords(batch.memberId)})`;
    // Its transfers, and the one giving the member's instant fee back: Stripe refused the instant
    // payout (the top-up), or the card's bank failed it (the fee back, decision 0340).
    const recordedTransfers = [
      ...batch.transfers,
      ...(batch.topUpTransferId ? [{ id: batch.topUpTransferId, amountCents: batch.topUpCents ?? 0 }] : []),
      ...(batch.feeBackTransferId ? [{ id: batch.feeBackTransferId, amountCents: batch.feeBackCents ?? 0 }] : []),
    ];
    for (const recorded of recordedTransfers) {
      const transfer = stripe.transfers.get(recorded.id);
      if (!transfer) {
        add({
          kind: 'missing_in_stripe',
          subject: 'transfer',
          text: `${who} names transfer ${recorded.id} in our ledger, which is not in Stripe.`,
          stripeIds: [recorded.id],
          ledgerIds: [batch.batchId],
        });
      } else if (transfer.amountCents !== recorded.amountCents) {
        add({
          kind: 'amount',
          subject: 'transfer',
          text: `${who} sent ${money(recorded.amountCents)} in our ledger but transfer ${transfer.id} is ${money(
            transfer.amountCents,
          )} in Stripe.`,
          stripeIds: [transfer.id],
          ledgerIds: [batch.batchId],
        });
      }
    }
    if (batch.payoutId) {
      const payout = stripe.payouts.get(batch.payoutId);
      if (!payout) {
        add({
          kind: 'missing_in_stripe',
          subject: 'payout',
          text: `${who} names payout ${batch.payoutId} in our ledger, which is not in Stripe.`,
          stripeIds: [batch.payoutId],
          ledgerIds: [batch.batchId],
        });
      } else {
        if (batch.state === 'paid' && FAILED_PAYOUT.has(payout.status)) {
          add({
            kind: 'status',
            subject: 'payout',
            text: `${who} is paid in our ledger but payout ${payout.id} of ${money(payout.amountCents)} is ${
              payout.status
            } in Stripe${payout.failure ? ` (${payout.failure})` : ''}.`,
            stripeIds: [payout.id, payout.accountId],
            ledgerIds: [batch.batchId],
          });
        }
        if (payout.amountCents !== batch.payoutCents) {
          add({
            kind: 'amount',
            subject: 'payout',
            text: `${who} paid out ${money(batch.payoutCents)} in our ledger but payout ${payout.id} is ${money(
              payout.amountCents,
            )} in Stripe.`,
            stripeIds: [payout.id],
            ledgerIds: [batch.batchId],
          });
        }
      }
    }
  }
}
