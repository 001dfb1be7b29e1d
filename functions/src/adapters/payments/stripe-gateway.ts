import type Stripe from 'stripe';
import * as z from 'zod/mini';
import { DomainError, badRequest, conflict } from '../../errors';
import { formatMoney } from '@portal/shared/domain/format';
import {
  idempotencyKey,
  InstantRefused,
  MALFORMED_EVENT,
  MoneyRefusal,
  type GatewayEvent,
  type PaymentGateway,
  type PaymentState,
  type PayoutAccountStatus,
  type RefundState,
  type PayoutCard,
  type DisputeData,
} from '../../payments/payment-gateway';
import {
  MCC_GENERAL_MERCHANDISE,
  WEBHOOK_TOLERANCE_SECONDS,
  type StripeGatewaySettings,
  TIMEOUT_MS,
  isStripeError,
  lazyStripeClient,
  unanswered,
  stripeUnavailable,
  patient,
  toDomainError,
  unreachable,
  ACCOUNT_GONE_ADMIN,
  CANNOT_TAKE_TRANSFERS,
} from '../stripe-client';

/** Re-exported for the gateway's readers (tests, scripts, the local demo). */
export {
  API_VERSION,
  MCC_GENERAL_MERCHANDISE,
  WEBHOOK_TOLERANCE_SECONDS,
  connectionOptions,
  lazyStripeClient,
  toDomainError,
  CARD_CHANGED_AT_ONCE,
  ACCOUNT_GONE_MEMBER,
  ACCOUNT_GONE_ADMIN,
  CANNOT_TAKE_TRANSFERS,
  type StripeGatewaySettings,
} from '../stripe-client';

/**
 * A refusal of a transfer or a payout as the admin should read it: a 409 saying what stands in
 * the way, a MoneyRefusal where the refusal is definite (the next try needs a new key). Anything
 * else stays an error (a 500 with a reference, the details in the log).
 */
/**
 * Why Stripe refused an instant payout where a standard one may still go, in words, by its code
 * (docs.stripe.com/error-codes; docs.stripe.com/connect/instant-payouts); undefined for any other.
 */
export function instantRefusal(code: string | undefined): string | undefined {
  switch (code) {
    case 'instant_payouts_config_disabled':
      return 'Stripe has not enabled instant payouts for this platform';
    case 'instant_payouts_currency_disabled':
      return 'Stripe has not enabled instant payouts in US dollars for this platform';
    case 'instant_payouts_limit_exceeded':
      return "the platform has reached Stripe's daily limit for instant payouts";
    case 'instant_payouts_unsupported':
      return 'the debit card does not take instant payouts';
    case 'amount_too_small':
    case 'amount_too_large':
      return 'an instant payout is $0.50 to $9,999.00';
    default:
      return undefined;
  }
}

export function toMoneyError(error: unknown, step: 'transfer' | 'payout'): unknown {
  if (!isStripeError(error)) return error;
  if (unanswered(error)) return stripeUnavailable(step === 'transfer' ? 'sent' : 'paid out');
  if (error.type === 'StripeIdempotencyError') {
    return conflict('Another request is moving this commission right now. Reload the page to see it.');
  }
  if (unreachable(error)) return new MoneyRefusal(ACCOUNT_GONE_ADMIN);
  if (error.code === 'insufficient_capabilities_for_transfer') return new MoneyRefusal(CANNOT_TAKE_TRANSFERS);
  if (error.code === 'balance_insufficient') {
    return new MoneyRefusal(
      step === 'transfer'
        ? "The platform's Stripe balance is too low to send this commission."
        : "The member's Stripe balance is too low for this payout: the commission's funds are not available in it yet. Try again later.",
    );
  }
  if (step === 'payout' && error.param === 'destination') {
    return conflict('The member has no debit card at Stripe to pay out to.');
  }
  if (error.code === 'resource_missing' || error.code === 'account_invalid') {
    return new MoneyRefusal(
      "The member's payout account was not found at Stripe: ask the member to set up payouts again.",
    );
  }
  return error;
}

const dateOf = (seconds: number) =>
  new Date(seconds * 1000).toLocaleDateString('en-US', {
    month: 'long',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });

/**
 * The platform's available balance is short of `amountCents` (a transfer for orders entered by
 * hand, which names no charge): on a manual payout schedule, when enough becomes available, read
 * from the pending balance transactions' `available_on`; on an automatic one, that it never
 * builds up and what to set (decision 0280). In words for the admin.
 */
async function shortfall(client: Stripe, amountCents: number, what = 'this commission'): Promise<MoneyRefusal> {
  // Stripe pays an automatic schedule's available balance out as it becomes available: no date to promise.
  const interval = (await client.accounts.retrieveCurrent()).settings?.payouts?.schedule?.interval;
  if (interval && interval !== 'manual') {
    return new MoneyRefusal(
      `The platform's available balance is too low to send ${what}, and Stripe pays it out automatically (${interval}), so it will not build up: orders entered by hand are paid from a balance the platform keeps. Set the platform's payouts to manual in Stripe's Dashboard (Settings → Payouts), add funds to its balance, then try again.`,
    );
  }
  const balance = await client.balance.retrieve();
  let available = balance.available.find((funds) => funds.currency === 'usd')?.amount ?? 0;
  const pending: Stripe.BalanceTransaction[] = [];
  for await (const transaction of client.balanceTransactions.list({ limit: 100 })) {
    if (transaction.status === 'pending' && transaction.currency === 'usd') pending.push(transaction);
    if (pending.length >= 500) break;
  }
  pending.sort((a, b) => a.available_on - b.available_on);
  for (const transaction of pending) {
    available += transaction.net;
    if (available >= amountCents) {
      return new MoneyRefusal(
        `The platform's available balance is too low to send ${what}: it becomes available on ${dateOf(transaction.available_on)}.`,
      );
    }
  }
  return new MoneyRefusal(
    `The platform's available balance is too low to send ${what}, and no pending funds cover it: add funds to the platform's Stripe balance.`,
  );
}

/** The payout's metadata and failure, from a `payout.*` event. */
function payoutData(event: Stripe.Event & { data: { object: Stripe.Payout } }) {
  const payout = event.data.object;
  return {
    payoutId: payout.id,
    accountId: event.account,
    metadata: payout.metadata ?? {},
    failure: payout.failure_message ?? payout.failure_code ?? null,
    failureCode: payout.failure_code ?? null,
    created: event.created,
    amountCents: typeof payout.amount === 'number' ? payout.amount : null,
    arrivalDate: typeof payout.arrival_date === 'number' ? payout.arrival_date : null,
    method: typeof payout.method === 'string' ? payout.method : null,
  };
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
const idOf = (value: string | { id: string } | null | undefined): string =>
  typeof value === 'string' ? value : (value?.id ?? '');

/**
 * The `t=` of a Stripe-Signature header (epoch seconds), from a header exactly as Stripe sends it
 * (docs.stripe.com/webhooks, "Verify manually"): `t=<seconds>`, once, then one `v1=<hex>` per
 * signing secret and possibly `v0=<hex>`, comma-separated, nothing else. Anything else is refused
 * before the signature is looked at: with two `t=`, the SDK checks the signature on the last and
 * this check would read another, so a signature made for any time could pass as a recent one.
 */
function signedAt(header: string): number {
  const refuse = () =>
    badRequest(
      'The Stripe-Signature header is not one Stripe sends: it must hold one t= and one or more v1= (v0= may follow), comma-separated, and nothing else.',
    );
  const timestamps: string[] = [];
  let signatures = 0;
  for (const part of header.split(',')) {
    const [, scheme, value] = /^(t|v1|v0)=(.*)$/.exec(part) ?? [];
    if (scheme === 't' && /^\d{1,12}$/.test(value ?? '')) timestamps.push(value!);
    else if ((scheme === 'v1' || scheme === 'v0') && /^[0-9a-f]{64}$/.test(value ?? '')) {
      if (scheme === 'v1') signatures++;
    } else throw refuse();
  }
  if (timestamps.length !== 1 || signatures === 0) throw refuse();
  return Number(timestamps[0]);
}

/**
 * The parts of each event's object the portal reads, checked before it reads them: a validly
 * signed event of the wrong shape is a 400 (and a log line), not a TypeError and a 500 that Stripe
 * would retry for three days. Other fields pass through unchecked.
 */
const Metadata = z.optional(z.nullable(z.record(z.string(), z.string())));
const EventEnvelope = z.object({
  id: z.string(),
  type: z.string(),
  created: z.number(),
  account: z.optional(z.nullable(z.string())),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});
const AccountObject = z.object({
  id: z.string(),
  object: z.literal('account'),
  metadata: Metadata,
  payouts_enabled: z.optional(z.nullable(z.boolean())),
  capabilities: z.optional(z.nullable(z.object({ transfers: z.optional(z.string()) }))),
  requirements: z.optional(z.nullable(z.object({ currently_due: z.optional(z.nullable(z.array(z.string()))) }))),
});
const PaymentIntentObject = z.object({
  id: z.string(),
  object: z.literal('payment_intent'),
  status: z.string(),
  amount: z.number(),
  currency: z.string(),
  metadata: Metadata,
});
const PayoutObject = z.object({
  id: z.string(),
  object: z.literal('payout'),
  metadata: Metadata,
  failure_message: z.optional(z.nullable(z.string())),
  failure_code: z.optional(z.nullable(z.string())),
  amount: z.optional(z.number()),
  arrival_date: z.optional(z.number()),
  method: z.optional(z.string()),
});
const TransferObject = z.object({ id: z.string(), object: z.literal('transfer'), metadata: Metadata });
const ChargeObject = z.object({
  id: z.string(),
  object: z.literal('charge'),
  payment_intent: z.optional(z.nullable(z.string())),
});
const RefundObject = z.object({
  id: z.string(),
  object: z.literal('refund'),
  amount: z.number(),
  status: z.nullable(z.string()),
  payment_intent: z.optional(z.nullable(z.string())),
  pending_reason: z.optional(z.nullable(z.string())),
  failure_reason: z.optional(z.nullable(z.string())),
});
const DisputeObject = z.object({
  id: z.string(),
  object: z.literal('dispute'),
  amount: z.number(),
  charge: z.string(),
  payment_intent: z.optional(z.nullable(z.string())),
  reason: z.string(),
  status: z.string(),
  evidence_details: z.optional(z.nullable(z.object({ due_by: z.optional(z.nullable(z.number())) }))),
});

function shaped<T>(schema: z.ZodMiniType<T>, value: unknown, type: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const where = result.error.issues.map((issue) => issue.path.join('.') || '(root)').join(', ');
  throw badRequest(`${MALFORMED_EVENT}: a ${type} event whose ${where} is not what Stripe sends.`);
}

/** A verified event as the portal acts on it, its shape checked first (see above). */
function toGatewayEvent(verified: unknown): GatewayEvent {
  const envelope = shaped(EventEnvelope, verified, 'Stripe');
  const event = verified as Stripe.Event;
  const object = envelope.data.object;
  if (event.type === 'account.updated') {
    shaped(AccountObject, object, event.type);
    return {
      id: event.id,
      kind: 'account.updated',
      account: toStatus(event.data.object, event.created),
      userId: event.data.object.metadata?.userId,
    };
  }
  if (event.type === 'payment_intent.succeeded') {
    shaped(PaymentIntentObject, object, event.type);
    return { id: event.id, kind: 'payment_intent.succeeded', payment: toPaymentState(event.data.object) };
  }
  if (event.type === 'payout.failed' || event.type === 'payout.paid') {
    shaped(PayoutObject, object, event.type);
    return { id: event.id, kind: event.type, ...payoutData(event) };
  }
  if (event.type === 'transfer.created') {
    shaped(TransferObject, object, event.type);
    return {
      id: event.id,
      kind: 'transfer.created',
      transferId: event.data.object.id,
      metadata: event.data.object.metadata ?? {},
      created: event.created,
    };
  }
  if (event.type === 'charge.refunded') {
    const charge = shaped(ChargeObject, object, event.type);
    return {
      id: event.id,
      kind: 'charge.refunded',
      chargeId: charge.id,
      paymentIntentId: charge.payment_intent ?? null,
    };
  }
  // A refund's later state: Stripe sends it as refund.updated, charge.refund.updated, and refund.failed (one refund, three events).
  if (event.type === 'refund.updated' || event.type === 'charge.refund.updated' || event.type === 'refund.failed') {
    const refund = shaped(RefundObject, object, event.type);
    return {
      id: event.id,
      kind: 'refund.updated',
      refund: {
        refundId: refund.id,
        paymentIntentId: refund.payment_intent ?? null,
        amountCents: refund.amount,
        status: event.type === 'refund.failed' ? 'failed' : (refund.status ?? 'pending'),
        pendingReason: refund.pending_reason ?? null,
        failureReason: refund.failure_reason ?? null,
      },
    };
  }
  if (event.type === 'charge.dispute.created' || event.type === 'charge.dispute.closed') {
    return { id: event.id, kind: event.type, dispute: toDispute(shaped(DisputeObject, object, event.type)) };
  }
  return { id: event.id, kind: 'other', type: event.type };
}

function toDispute(dispute: z.infer<typeof DisputeObject>): DisputeData {
  return {
    disputeId: dispute.id,
    chargeId: dispute.charge,
    paymentIntentId: dispute.payment_intent ?? null,
    amountCents: dispute.amount,
    reason: dispute.reason,
    status: dispute.status,
    evidenceDueBy: dispute.evidence_details?.due_by ?? null,
  };
}

/** Stripe has no such object (404 `resource_missing`): undefined; any other error is thrown. */
async function unlessMissing<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    // A connected account that is not ours (403) has, for us, no such object either.
    if (isStripeError(error) && (error.code === 'resource_missing' || error.statusCode === 404 || unreachable(error))) {
      return undefined;
    }
    throw error;
  }
}

const toRefundState = (refund: Stripe.Refund): RefundState => ({
  id: refund.id,
  amountCents: refund.amount,
  status: refund.status ?? 'pending',
  reason: refund.reason ?? null,
  metadata: { ...refund.metadata },
  pendingReason: refund.pending_reason ?? null,
});

/**
 * A refund Stripe refused: more than is left (`amount_too_large`), refunded in full already
 * (`charge_already_refunded`), or disputed (`charge_disputed`): a 409 in words for the admin.
 */
function toRefundError(error: unknown): unknown {
  if (!isStripeError(error)) return error;
  if (unanswered(error)) return stripeUnavailable('refunded');
  if (error.type === 'StripeIdempotencyError') {
    return conflict('Another refund of this order is being made right now. Reload the order to see it.');
  }
  // Definite refusals: the next try must be a new request (a new key), not this refusal replayed.
  if (error.code === 'charge_already_refunded') {
    return new MoneyRefusal('Stripe says this payment is refunded in full already.');
  }
  if (error.code === 'amount_too_large') {
    return new MoneyRefusal(
      `Stripe refused the refund: it is more than what is left to refund of this payment. ${error.message}`,
    );
  }
  if (error.code === 'charge_disputed') {
    // Stripe's answer while the dispute's `is_charge_refundable` is false: open, or lost.
    return new MoneyRefusal(
      "This payment is disputed (charged back by the card holder's bank): the bank decides whether the customer gets the money back; refunds are not possible while the dispute is open or after it is lost.",
    );
  }
  return error;
}

/** A card as the apps show it (never the fingerprint, never the account's other details). */
function toCard(card: Stripe.Card): PayoutCard {
  return { id: card.id, brand: card.brand, exp_month: card.exp_month, exp_year: card.exp_year, last4: card.last4 };
}

/** `asOf`: when Stripe said this (epoch seconds): the account's creation, an event's `created`, a retrieve's time. */
function toStatus(account: Stripe.Account, asOf: number): PayoutAccountStatus {
  return {
    id: account.id,
    asOf,
    // What is due now and what is overdue (Stripe lists a failed check's requirement in both).
    requirementsDue: [
      ...new Set([...(account.requirements?.currently_due ?? []), ...(account.requirements?.past_due ?? [])]),
    ],
    transfers: account.capabilities?.transfers ?? 'unrequested',
    payoutsEnabled: account.payouts_enabled ?? false,
    pendingVerification: account.requirements?.pending_verification ?? [],
    errors: (account.requirements?.errors ?? []).map(({ requirement, code, reason }) => ({
      requirement,
      code,
      reason,
    })),
    payoutInterval: account.settings?.payouts?.schedule?.interval ?? null,
  };
}

/** A PaymentIntent as the sales capability records it. */
export function toPaymentState(intent: Stripe.PaymentIntent): PaymentState {
  const address = intent.shipping?.address;
  return {
    id: intent.id,
    status: intent.status,
    amountCents: intent.amount,
    currency: intent.currency,
    metadata: { ...intent.metadata },
    shipping: intent.shipping
      ? {
          name: intent.shipping.name ?? '',
          address: {
            line1: address?.line1 ?? '',
            ...(address?.line2 ? { line2: address.line2 } : {}),
            city: address?.city ?? '',
            state: address?.state ?? '',
            postalCode: address?.postal_code ?? '',
          },
        }
      : null,
    receiptEmail: intent.receipt_email ?? null,
    chargeId: typeof intent.latest_charge === 'string' ? intent.latest_charge : (intent.latest_charge?.id ?? null),
  };
}

/**
 * The PaymentGateway on Stripe Connect through the `stripe` SDK: api.stripe.com, or the local
 * emulator when STRIPE_API_URL names it. The client is made on first use (the secret key comes
 * from Secrets Manager at cold start), so a function that imports the module but never pays
 * anyone makes no client.
 */
export function createStripeGateway(settings: StripeGatewaySettings): PaymentGateway {
  const stripe = lazyStripeClient(settings, () => settings.timeoutMs?.() ?? TIMEOUT_MS);
  const mapped = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw toDomainError(error);
    }
  };
  const client: GatewayClient = { stripe, mapped, settings };
  return {
    ...accountCalls(client),
    ...paymentIntentCalls(client),
    ...moneyCalls(client),
    ...eventAndRefundCalls(client),
  };
}

/** What each group of the gateway's calls works with: the lazy client, the error mapping, the settings. */
interface GatewayClient {
  stripe: () => Promise<Stripe>;
  mapped: <T>(work: () => Promise<T>) => Promise<T>;
  settings: StripeGatewaySettings;
}

type AccountCalls = Pick<
  PaymentGateway,
  'createConnectedAccount' | 'addDebitCard' | 'replaceDebitCard' | 'listCards' | 'retrieveAccount'
>;
type PaymentIntentCalls = Pick<PaymentGateway, 'createPaymentIntent' | 'retrievePaymentIntent' | 'cancelPaymentIntent'>;
type MoneyCalls = Pick<
  PaymentGateway,
  | 'createTransfer'
  | 'findTransfer'
  | 'createPayout'
  | 'payoutDestination'
  | 'chargeFunds'
  | 'connectedBalance'
  | 'updateIndividual'
  | 'chargeCard'
  | 'setManualPayouts'
>;
type EventAndRefundCalls = Omit<PaymentGateway, keyof AccountCalls | keyof PaymentIntentCalls | keyof MoneyCalls>;

/** The member's connected account and its payout card. */
function accountCalls({ stripe, mapped }: GatewayClient): AccountCalls {
  return {
    createConnectedAccount: (account) =>
      mapped(async () => {
        const params: Stripe.AccountCreateParams = {
          country: 'US',
          email: account.email,
          // Custom-equivalent: the platform collects requirements, takes losses and fees; no dashboard.
          controller: {
            fees: { payer: 'application' },
            losses: { payments: 'application' },
            requirement_collection: 'application',
            stripe_dashboard: { type: 'none' },
          },
          capabilities: { transfers: { requested: true } },
          business_type: 'individual',
          // 5399, Misc. General Merchandise: members resell the catalogue's general merchandise
          // (dropshipped, many categories) through their share links; Stripe requires an MCC (or a
          // product description) before it enables transfers.
          business_profile: { url: account.profileUrl, mcc: MCC_GENERAL_MERCHANDISE },
          // The portal pays each commission out itself (a payout per commission): no automatic schedule.
          settings: { payouts: { schedule: { interval: 'manual' } } },
          individual: {
            first_name: account.firstName,
            last_name: account.lastName,
            email: account.email,
            phone: account.phone,
            dob: account.dob,
            address: {
              line1: account.address.line1,
              ...(account.address.line2 ? { line2: account.address.line2 } : {}),
              city: account.address.city,
              state: account.address.state,
              postal_code: account.address.postalCode,
              country: 'US',
            },
            id_number: account.taxId,
          },
          tos_acceptance: {
            date: Math.floor(account.tosAcceptance.date.getTime() / 1000),
            ip: account.tosAcceptance.ip,
            ...(account.tosAcceptance.userAgent ? { user_agent: account.tosAcceptance.userAgent } : {}),
          },
          metadata: { userId: account.userId },
        };
        const client = await stripe();
        const key = idempotencyKey('payout-account', account.userId);
        const created = await patient(() => client.accounts.create(params, { idempotencyKey: key }));
        return toStatus(created, created.created ?? nowSeconds());
      }),

    addDebitCard: (accountId, cardToken, userId) =>
      mapped(async () => {
        const added = await (
          await stripe()
        ).accounts.createExternalAccount(
          accountId,
          { external_account: cardToken },
          { idempotencyKey: idempotencyKey('payout-card', userId, cardToken) },
        );
        if (added.object !== 'card') throw badRequest('Add a debit card.', { token: 'Add a debit card.' });
        return toCard(added);
      }),

    replaceDebitCard: (accountId, cardToken, userId) =>
      mapped(async () => {
        const client = await stripe();
        const added = await patient(() =>
          client.accounts.createExternalAccount(
            accountId,
            { external_account: cardToken, default_for_currency: true },
            { idempotencyKey: idempotencyKey('payout-card', userId, `${cardToken}:default`) },
          ),
        );
        if (added.object !== 'card') throw badRequest('Add a debit card.', { token: 'Add a debit card.' });
        const list = await client.accounts.listExternalAccounts(accountId, { object: 'card', limit: 100 });
        for (const other of list.data) {
          if (other.id === added.id) continue;
          try {
            await patient(() => client.accounts.deleteExternalAccount(accountId, other.id));
          } catch (error) {
            // Deleted by a retry of this replacement a moment ago: what it was meant to do.
            if (!(isStripeError(error) && error.code === 'resource_missing')) throw error;
          }
        }
        return toCard(added);
      }),

    listCards: (accountId) =>
      mapped(async () => {
        const list = await (await stripe()).accounts.listExternalAccounts(accountId, { object: 'card', limit: 10 });
        return list.data.filter((item): item is Stripe.Card => item.object === 'card').map(toCard);
      }),

    retrieveAccount: (accountId) =>
      mapped(async () => toStatus(await (await stripe()).accounts.retrieve(accountId), nowSeconds())),
  };
}

/** The customers' payment intents: created at the server's price, read, cancelled when abandoned. */
function paymentIntentCalls({ stripe, mapped }: GatewayClient): PaymentIntentCalls {
  return {
    createPaymentIntent: (intent) =>
      mapped(async () => {
        const created = await (
          await stripe()
        ).paymentIntents.create(
          {
            amount: intent.amountCents,
            currency: 'usd',
            // The checkout takes a card on the page (Stripe Elements, or the emulator's card form): no redirects.
            automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
            metadata: intent.metadata,
            ...(intent.description ? { description: intent.description } : {}),
            ...(intent.shipping
              ? {
                  shipping: {
                    name: intent.shipping.name,
                    address: {
                      line1: intent.shipping.address.line1,
                      ...(intent.shipping.address.line2 ? { line2: intent.shipping.address.line2 } : {}),
                      city: intent.shipping.address.city,
                      state: intent.shipping.address.state,
                      postal_code: intent.shipping.address.postalCode,
                      country: 'US',
                    },
                  },
                }
              : {}),
            ...(intent.receiptEmail ? { receipt_email: intent.receiptEmail } : {}),
          },
          { idempotencyKey: intent.idempotencyKey },
        );
        if (!created.client_secret)
          throw new Error(`Stripe answered payment intent ${created.id} without a client secret`);
        return { id: created.id, clientSecret: created.client_secret, amountCents: created.amount, currency: 'usd' };
      }),

    retrievePaymentIntent: (id) =>
      mapped(async () => {
        try {
          return toPaymentState(await (await stripe()).paymentIntents.retrieve(id));
        } catch (error) {
          if (isStripeError(error) && error.code === 'resource_missing') {
            throw new DomainError('not-found', 'No such payment.', { fields: { paymentIntentId: 'No such payment.' } });
          }
          throw error;
        }
      }),

    cancelPaymentIntent: (id, key) =>
      mapped(async () => {
        const client = await stripe();
        try {
          const canceled = await patient(() =>
            client.paymentIntents.cancel(id, { cancellation_reason: 'abandoned' }, { idempotencyKey: key }),
          );
          return { status: canceled.status };
        } catch (error) {
          // Paid, or cancelled already (by a retry, the dashboard, or Stripe): its status says which.
          if (isStripeError(error) && error.code === 'payment_intent_unexpected_state') {
            return { status: (await client.paymentIntents.retrieve(id)).status };
          }
          throw error;
        }
      }),
  };
}

/** Transfers to a member's account, its payouts, balances, the charge's funds, and the account's payout settings. */
function moneyCalls({ stripe, mapped }: GatewayClient): MoneyCalls {
  return {
    createTransfer: async (transfer) => {
      const client = await stripe();
      try {
        const created = await patient(() =>
          client.transfers.create(
            {
              amount: transfer.amountCents,
              currency: 'usd',
              destination: transfer.destinationAccountId,
              metadata: transfer.metadata,
              // From the sale's charge: it may go while the charge's funds are still pending.
              ...(transfer.sourceTransaction ? { source_transaction: transfer.sourceTransaction } : {}),
              ...(transfer.transferGroup ? { transfer_group: transfer.transferGroup } : {}),
            },
            { idempotencyKey: transfer.idempotencyKey },
          ),
        );
        return { id: created.id, amountCents: created.amount };
      } catch (error) {
        const mapped = toMoneyError(error, 'transfer');
        // Drawn on the available balance (no charge to fund it): say when enough becomes available.
        if (
          !transfer.sourceTransaction &&
          mapped instanceof MoneyRefusal &&
          isStripeError(error) &&
          error.code === 'balance_insufficient'
        ) {
          // A batch's transfer carries several commissions (commissions/batches.ts).
          const what = transfer.metadata.batchId
            ? `these commissions (${formatMoney(transfer.amountCents)})`
            : undefined;
          throw await shortfall(client, transfer.amountCents, what).catch(() => mapped);
        }
        throw mapped;
      }
    },

    findTransfer: async (destinationAccountId, key, value) => {
      try {
        const client = await stripe();
        // Newest first; a commission's transfer is among the account's recent ones.
        for await (const transfer of client.transfers.list({ destination: destinationAccountId, limit: 100 })) {
          if (transfer.metadata?.[key] === value) return { id: transfer.id };
        }
        return undefined;
      } catch (error) {
        throw toMoneyError(error, 'transfer');
      }
    },

    createPayout: async (payout) => {
      try {
        const client = await stripe();
        const options = { stripeAccount: payout.accountId };
        // Standard unless asked: Stripe bills the platform 1 % of an instant payout (decision 0270).
        const method = payout.method ?? 'standard';
        const created = await patient(() =>
          client.payouts.create(
            { amount: payout.amountCents, currency: 'usd', method, metadata: payout.metadata },
            { ...options, idempotencyKey: payout.idempotencyKey },
          ),
        );
        return { id: created.id, status: created.status, method: created.method, arrivalDate: created.arrival_date };
      } catch (error) {
        const instant = payout.method === 'instant' && isStripeError(error) ? instantRefusal(error.code) : undefined;
        if (instant) throw new InstantRefused(instant);
        throw toMoneyError(error, 'payout');
      }
    },

    payoutDestination: async (accountId) => {
      try {
        const client = await stripe();
        const cards = await client.accounts.listExternalAccounts(accountId, { object: 'card', limit: 10 });
        const card = cards.data.find(
          (item): item is Stripe.Card => item.object === 'card' && item.default_for_currency === true,
        );
        if (!card) return undefined;
        return {
          last4: card.last4,
          brand: card.brand,
          instant: card.available_payout_methods?.includes('instant') ?? false,
        };
      } catch (error) {
        throw toMoneyError(error, 'payout');
      }
    },

    chargeFunds: (chargeId) =>
      mapped(async () => {
        const list = await (await stripe()).balanceTransactions.list({ source: chargeId, limit: 10 });
        const funding = list.data.find((entry) => entry.type === 'charge' || entry.type === 'payment');
        return funding ? { available: funding.status === 'available', availableOn: funding.available_on } : undefined;
      }),

    connectedBalance: (accountId) =>
      mapped(async () => {
        const client = await stripe();
        const options = { stripeAccount: accountId };
        const balance = await client.balance.retrieve({}, options);
        const availableCents = balance.available.find((funds) => funds.currency === 'usd')?.amount ?? 0;
        const pendingCents = balance.pending.find((funds) => funds.currency === 'usd')?.amount ?? 0;
        if (pendingCents <= 0) return { availableCents, pending: [] };
        // The pending funds by day: the account's recent balance transactions still pending.
        const byDay = new Map<number, number>();
        const list = await client.balanceTransactions.list({ currency: 'usd', limit: 100 }, options);
        for (const entry of list.data) {
          if (entry.status !== 'pending') continue;
          byDay.set(entry.available_on, (byDay.get(entry.available_on) ?? 0) + entry.net);
        }
        const pending = [...byDay.entries()]
          .filter(([, amountCents]) => amountCents > 0)
          .sort(([a], [b]) => a - b)
          .map(([availableOn, amountCents]) => ({ amountCents, availableOn }));
        return { availableCents, pending };
      }),

    updateIndividual: (accountId, details) =>
      mapped(async () => {
        const individual: Stripe.AccountUpdateParams.Individual = {
          ...(details.firstName ? { first_name: details.firstName } : {}),
          ...(details.lastName ? { last_name: details.lastName } : {}),
          ...(details.dob ? { dob: details.dob } : {}),
          ...(details.address
            ? {
                address: {
                  line1: details.address.line1,
                  line2: details.address.line2 ?? '',
                  city: details.address.city,
                  state: details.address.state,
                  postal_code: details.address.postalCode,
                  country: 'US',
                },
              }
            : {}),
          ...(details.taxId ? { id_number: details.taxId } : {}),
        };
        const updated = await (await stripe()).accounts.update(accountId, { individual });
        return toStatus(updated, nowSeconds());
      }),

    chargeCard: (chargeId) =>
      mapped(async () => {
        try {
          const card = (await (await stripe()).charges.retrieve(chargeId)).payment_method_details?.card;
          return card?.last4 ? { last4: card.last4, brand: card.brand ?? 'card' } : undefined;
        } catch (error) {
          if (isStripeError(error) && error.code === 'resource_missing') return undefined;
          throw error;
        }
      }),

    setManualPayouts: async (accountId, found) => {
      try {
        const client = await stripe();
        await patient(() =>
          client.accounts.update(
            accountId,
            { settings: { payouts: { schedule: { interval: 'manual' } } } },
            // One update per account and schedule found: a redelivered event sends the same key.
            { idempotencyKey: `portal:manual-payouts:${accountId}:${found}` },
          ),
        );
      } catch (error) {
        throw toMoneyError(error, 'payout');
      }
    },
  };
}

/** Stripe's signed events, and the refunds, disputes, charges, payouts and reversals they name. */
function eventAndRefundCalls({ stripe, mapped, settings }: GatewayClient): EventAndRefundCalls {
  return {
    verifyEvent: async (rawBody, signature, endpoint) => {
      const secretOf = endpoint === 'connect' ? settings.connectWebhookSecret : settings.webhookSecret;
      // Before anything else: a header that is not Stripe's form (two t=, empty or unknown parts).
      const timestamp = signedAt(signature);
      const [client, secret] = await Promise.all([stripe(), secretOf()]);
      let verified: unknown;
      try {
        verified = client.webhooks.constructEvent(rawBody, signature, secret, WEBHOOK_TOLERANCE_SECONDS);
      } catch {
        throw badRequest('The webhook signature does not match.');
      }
      // constructEvent refuses only a timestamp too far in the past; one as far in the future is as suspect.
      if (timestamp > nowSeconds() + WEBHOOK_TOLERANCE_SECONDS) {
        throw badRequest('The webhook timestamp is in the future, beyond the 300 s tolerance.');
      }
      return toGatewayEvent(verified);
    },

    createRefund: async (refund) => {
      try {
        const client = await stripe();
        const created = await patient(() =>
          client.refunds.create(
            {
              payment_intent: refund.paymentIntentId,
              amount: refund.amountCents,
              reason: refund.reason,
              metadata: refund.metadata,
            },
            { idempotencyKey: refund.idempotencyKey },
          ),
        );
        return toRefundState(created);
      } catch (error) {
        throw toRefundError(error);
      }
    },

    listRefunds: async (paymentIntentId) => {
      try {
        const client = await stripe();
        const refunds: RefundState[] = [];
        for await (const refund of client.refunds.list({ payment_intent: paymentIntentId, limit: 100 })) {
          refunds.push(toRefundState(refund));
        }
        return refunds;
      } catch (error) {
        throw toRefundError(error);
      }
    },

    retrieveDispute: (id) =>
      mapped(() =>
        unlessMissing(async () => {
          const dispute = await (await stripe()).disputes.retrieve(id);
          return {
            disputeId: dispute.id,
            chargeId: idOf(dispute.charge),
            paymentIntentId: dispute.payment_intent ? idOf(dispute.payment_intent) : null,
            amountCents: dispute.amount,
            reason: dispute.reason,
            status: dispute.status,
            evidenceDueBy: dispute.evidence_details?.due_by ?? null,
          };
        }),
      ),

    retrieveCharge: (id) =>
      mapped(() =>
        unlessMissing(async () => {
          const charge = await (await stripe()).charges.retrieve(id);
          return { chargeId: charge.id, paymentIntentId: charge.payment_intent ? idOf(charge.payment_intent) : null };
        }),
      ),

    retrievePayout: (accountId, id) =>
      mapped(() =>
        unlessMissing(async () => {
          const payout = await (await stripe()).payouts.retrieve(id, {}, { stripeAccount: accountId });
          return {
            payoutId: payout.id,
            status: payout.status,
            metadata: { ...payout.metadata },
            failure: payout.failure_message ?? payout.failure_code ?? null,
            amountCents: payout.amount,
            arrivalDate: payout.arrival_date ?? null,
            method: payout.method ?? null,
          };
        }),
      ),

    createTransferReversal: async (reversal) => {
      try {
        const client = await stripe();
        const created = await patient(() =>
          client.transfers.createReversal(
            reversal.transferId,
            { amount: reversal.amountCents, metadata: reversal.metadata },
            { idempotencyKey: reversal.idempotencyKey },
          ),
        );
        return { id: created.id, amountCents: created.amount };
      } catch (error) {
        throw toMoneyError(error, 'transfer');
      }
    },
  };
}
