import type Stripe from 'stripe';
import type {
  StripeCharge,
  StripePayout,
  StripeRecords,
  StripeRefund,
  StripeReversal,
  StripeTransfer,
} from '../../reconciliation/records';
import { lazyStripeClient, toDomainError } from '../stripe-client';

/**
 * Reconciliation's reads of Stripe (reconciliation/reconcile.ts), with the `stripe` SDK: every
 * list bounded by `created` and read to its end with the SDK's auto-pagination (100 a page), a
 * connected account's payouts with its `Stripe-Account` header, single objects by id (a
 * `resource_missing` answer is null: Stripe has no such object). Reads only, so no idempotency
 * key; the SDK retries a fault or a 5xx twice.
 */

export interface StripeRecordsSettings {
  secretKey: () => Promise<string>;
  /** `STRIPE_API_URL`: the local emulator; undefined talks to https://api.stripe.com. */
  apiUrl: () => string | undefined;
}

/** Each read's timeout: a list page of 100 objects answers well within it. */
const TIMEOUT_MS = 10_000;
const PAGE = 100;

const metadataOf = (metadata: Stripe.Metadata | null | undefined): Record<string, string> => ({ ...(metadata ?? {}) });
const idOf = (value: string | { id: string } | null | undefined): string | null =>
  typeof value === 'string' ? value : (value?.id ?? null);

const toCharge = (charge: Stripe.Charge): StripeCharge => ({
  id: charge.id,
  amountCents: charge.amount,
  refundedCents: charge.amount_refunded,
  paymentIntentId: idOf(charge.payment_intent),
  status: charge.status,
  created: charge.created,
});

const toRefund = (refund: Stripe.Refund): StripeRefund => ({
  id: refund.id,
  amountCents: refund.amount,
  status: refund.status ?? 'pending',
  chargeId: idOf(refund.charge),
  paymentIntentId: idOf(refund.payment_intent),
  created: refund.created,
  metadata: metadataOf(refund.metadata),
});

const toReversal = (reversal: Stripe.TransferReversal, transferId: string): StripeReversal => ({
  id: reversal.id,
  transferId,
  amountCents: reversal.amount,
  created: reversal.created,
  metadata: metadataOf(reversal.metadata),
});

const toPayout = (payout: Stripe.Payout, accountId: string): StripePayout => ({
  id: payout.id,
  accountId,
  amountCents: payout.amount,
  status: payout.status,
  failure: payout.failure_message ?? payout.failure_code ?? null,
  created: payout.created,
  metadata: metadataOf(payout.metadata),
});

const isMissing = (error: unknown): boolean =>
  typeof error === 'object' &&
  error !== null &&
  ((error as { code?: unknown }).code === 'resource_missing' ||
    // A payout looked up on an account the platform can no longer reach is not there either.
    (error as { code?: unknown }).code === 'account_invalid');

export function createStripeRecords(settings: StripeRecordsSettings): StripeRecords {
  const stripe = lazyStripeClient(settings, () => TIMEOUT_MS);
  const mapped = async <T>(work: (client: Stripe) => Promise<T>): Promise<T> => {
    try {
      return await work(await stripe());
    } catch (error) {
      throw toDomainError(error);
    }
  };
  /** One object by id; null when Stripe has none. */
  const single = <T>(work: (client: Stripe) => Promise<T>): Promise<T | null> =>
    mapped(async (client) => {
      try {
        return await work(client);
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    });
  /** Every reversal of a transfer: the embedded first page, then the rest when Stripe has more. */
  const withReversals = async (client: Stripe, transfer: Stripe.Transfer): Promise<StripeTransfer> => {
    const embedded = transfer.reversals?.data ?? [];
    const reversals = transfer.reversals?.has_more
      ? await client.transfers.listReversals(transfer.id, { limit: PAGE }).autoPagingToArray({ limit: 10_000 })
      : embedded;
    return {
      id: transfer.id,
      amountCents: transfer.amount,
      reversedCents: transfer.amount_reversed,
      destination: idOf(transfer.destination),
      created: transfer.created,
      metadata: metadataOf(transfer.metadata),
      reversals: reversals.map((reversal) => toReversal(reversal, transfer.id)),
    };
  };

  /** The charge, with its lost disputes when it is disputed (one list of its disputes). */
  const withDisputes = async (client: Stripe, charge: Stripe.Charge): Promise<StripeCharge> => {
    if (!charge.disputed) return toCharge(charge);
    const disputes = await client.disputes.list({ charge: charge.id, limit: PAGE });
    const lostDisputes = disputes.data
      .filter((dispute) => dispute.status === 'lost')
      .map((dispute) => ({ id: dispute.id, amountCents: dispute.amount }));
    return { ...toCharge(charge), lostDisputes };
  };

  return {
    charges: (period) =>
      mapped(async (client) => {
        const found: StripeCharge[] = [];
        for await (const charge of client.charges.list({ created: period, limit: PAGE })) {
          found.push(await withDisputes(client, charge));
        }
        return found;
      }),
    refunds: (period) =>
      mapped(async (client) => {
        const found: StripeRefund[] = [];
        for await (const refund of client.refunds.list({ created: period, limit: PAGE })) found.push(toRefund(refund));
        return found;
      }),
    transfers: (period) =>
      mapped(async (client) => {
        const found: StripeTransfer[] = [];
        for await (const transfer of client.transfers.list({ created: period, limit: PAGE })) {
          found.push(await withReversals(client, transfer));
        }
        return found;
      }),
    accounts: () =>
      mapped(async (client) => {
        const found: { id: string; userId: string | null }[] = [];
        for await (const account of client.accounts.list({ limit: PAGE })) {
          found.push({ id: account.id, userId: account.metadata?.userId ?? null });
        }
        return found;
      }),
    payouts: (accountId, period) =>
      mapped(async (client) => {
        const found: StripePayout[] = [];
        const pages = client.payouts.list({ created: period, limit: PAGE }, { stripeAccount: accountId });
        for await (const payout of pages) found.push(toPayout(payout, accountId));
        return found;
      }),
    charge: (id) => single(async (client) => withDisputes(client, await client.charges.retrieve(id))),
    chargeOfPayment: (paymentIntentId) =>
      single(async (client) => {
        const page = await client.charges.list({ payment_intent: paymentIntentId, limit: 10 });
        const charge = page.data.find((one) => one.status === 'succeeded') ?? page.data[0];
        return charge ? withDisputes(client, charge) : null;
      }),
    refund: (id) => single(async (client) => toRefund(await client.refunds.retrieve(id))),
    transfer: (id) => single(async (client) => withReversals(client, await client.transfers.retrieve(id))),
    payout: (accountId, id) =>
      single(async (client) =>
        toPayout(await client.payouts.retrieve(id, {}, { stripeAccount: accountId }), accountId),
      ),
  };
}
