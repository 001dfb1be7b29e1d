import type Stripe from 'stripe';
import { applyAccountParams, evaluate, newAccount } from './accounts';
import { externalCard, cardToken, payoutFailureOf } from './cards';
import { StripeApiError, invalid, missing, noSuch } from './errors';
import { stripeId, unixNow } from './ids';
import { amount, currency, mergeMetadata, optionalString, page, requiredString, type Params } from './params';
import { cardPaymentMethod, checkClientSecret, confirmPaymentIntent, newPaymentIntent } from './payments';
import { PLATFORM, type Store } from './store';
import type { WebhookSender } from './webhooks';

/** The API version the emulator's objects follow: the one of Stripe's OpenAPI document it is checked against. */
export const API_VERSION = '2024-04-10';

/** Metadata that makes a payout fail (`payout.failed`) instead of being paid: the emulator's own switch. */
export const FAIL_PAYOUT_METADATA = { key: 'emulator_outcome', value: 'failed' } as const;

export interface CallContext {
  /** `platform`, or the connected account named by the `Stripe-Account` header. */
  owner: string;
  requestId: string;
  idempotencyKey: string | undefined;
  /** Made with the publishable key (a browser's Stripe.js call): a confirmation must carry the intent's client_secret. */
  publishable?: boolean;
}

const INSUFFICIENT_TRANSFER_FUNDS =
  'You have insufficient available funds in your Stripe account. Try adding funds directly to your available balance by creating Charges using the 4000000000000077 test card. See: https://stripe.com/docs/testing#available-balance';
const INSUFFICIENT_PAYOUT_FUNDS =
  'You have insufficient funds in your Stripe account for this transfer. Your card balance is too low. You can use the /v1/balance endpoint to view your Stripe balance (for more details, see stripe.com/docs/api#balance).';

const newestFirst = <T extends { created: number }>(items: T[]): T[] =>
  items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => b.item.created - a.item.created || b.index - a.index)
    .map(({ item }) => item);

/** The operations behind each route; every change is saved before the response goes out. */
export class Emulator {
  constructor(
    private readonly store: Store,
    private readonly webhooks: WebhookSender | undefined,
    /** Runs work that happens after the answer, as the card network settles a payout later. */
    private readonly later: (work: () => void) => void,
  ) {}

  private get state() {
    return this.store.state;
  }

  platformOnly(context: CallContext): void {
    if (context.owner !== PLATFORM) {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        'This call must be made by the platform, without a Stripe-Account header.',
      );
    }
  }

  account(id: string): Stripe.Account {
    const account = this.state.accounts[id];
    if (!account) throw noSuch('account', id, 'account');
    return account;
  }

  private withExternalAccounts(account: Stripe.Account): Stripe.Account {
    const cards = this.state.externalAccounts[account.id] ?? [];
    return {
      ...account,
      external_accounts: {
        object: 'list',
        data: [...cards].reverse(),
        has_more: false,
        url: `/v1/accounts/${account.id}/external_accounts`,
      },
    };
  }

  // Events

  private emit(
    type: Stripe.Event.Type,
    object: { id: string },
    context: CallContext,
    account?: string,
    previous?: Record<string, unknown>,
  ): void {
    const event = {
      id: stripeId('evt'),
      object: 'event',
      ...(account ? { account } : {}),
      api_version: API_VERSION,
      created: unixNow(),
      // A snapshot: the stored objects change later, an event does not.
      data: structuredClone({ object, ...(previous ? { previous_attributes: previous } : {}) }),
      livemode: false,
      pending_webhooks: this.webhooks ? 1 : 0,
      request: { id: context.requestId || null, idempotency_key: context.idempotencyKey ?? null },
      type,
    } as unknown as Stripe.Event;
    this.state.events.push(event);
    this.webhooks?.send(structuredClone(event), () => {
      event.pending_webhooks = 0;
      this.store.save();
    });
  }

  listEvents(params: Params, context: CallContext) {
    const type = optionalString(params, 'type');
    const mine = this.state.events.filter(
      (event) =>
        (context.owner === PLATFORM ? !event.account : event.account === context.owner) &&
        (!type || event.type === type),
    );
    return page(newestFirst(mine), params, '/v1/events');
  }

  retrieveEvent(id: string, context: CallContext): Stripe.Event {
    const event = this.state.events.find((candidate) => candidate.id === id);
    if (!event || (context.owner === PLATFORM ? event.account : event.account !== context.owner))
      throw noSuch('event', id);
    return event;
  }

  // Accounts

  createAccount(params: Params, context: CallContext): Stripe.Account {
    this.platformOnly(context);
    const account = newAccount(params, (id) => `/v1/accounts/${id}/external_accounts`);
    evaluate(account, 0);
    this.state.accounts[account.id] = account;
    return this.withExternalAccounts(account);
  }

  retrieveAccount(id: string | undefined, context: CallContext): Stripe.Account {
    const accountId = id ?? (context.owner === PLATFORM ? undefined : context.owner);
    if (!accountId) {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        'The emulator has no platform account object; retrieve a connected account by id.',
      );
    }
    if (context.owner !== PLATFORM && context.owner !== accountId) throw noSuch('account', accountId, 'account');
    return this.withExternalAccounts(this.account(accountId));
  }

  updateAccount(id: string, params: Params, context: CallContext): Stripe.Account {
    this.platformOnly(context);
    const account = this.account(id);
    const before = this.snapshot(account);
    applyAccountParams(account, params);
    evaluate(account, this.state.externalAccounts[id]?.length ?? 0);
    this.emitAccountUpdated(before, account, context);
    return this.withExternalAccounts(account);
  }

  /** The account as it answers now, with its external accounts, to compare with after a change. */
  private snapshot(account: Stripe.Account): Stripe.Account {
    return structuredClone(this.withExternalAccounts(account));
  }

  /**
   * `account.updated` whenever a property of the account changed, its external accounts included
   * (Stripe sends it for a card added as for new requirements), with `previous_attributes`.
   */
  private emitAccountUpdated(before: Stripe.Account, account: Stripe.Account, context: CallContext): void {
    const after = this.withExternalAccounts(account);
    const previous: Record<string, unknown> = {};
    for (const key of Object.keys(after) as (keyof Stripe.Account)[]) {
      if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) previous[key] = before[key] ?? null;
    }
    if (Object.keys(previous).length) this.emit('account.updated', after, context, after.id, previous);
  }

  listAccounts(params: Params, context: CallContext) {
    this.platformOnly(context);
    const accounts = newestFirst(
      Object.values(this.state.accounts).map((account) => ({ ...account, created: account.created ?? 0 })),
    );
    return page(
      accounts.map((account) => this.withExternalAccounts(account)),
      params,
      '/v1/accounts',
    );
  }

  // Tokens and external accounts

  createToken(params: Params): Stripe.Token {
    if (params.card === undefined) throw missing('card');
    if (typeof params.card === 'string')
      throw invalid('card', 'The emulator makes card tokens from card details only.');
    const token = cardToken(params);
    this.state.tokens[token.id] = token;
    return token;
  }

  /** A card PaymentMethod from an unused card token (`type=card`, `card[token]`), as Stripe.js makes one. */
  createPaymentMethod(params: Params): Stripe.PaymentMethod {
    const method = cardPaymentMethod(params, this.state.tokens);
    this.state.paymentMethods[method.id] = method;
    return method;
  }

  createExternalAccount(accountId: string, params: Params, context: CallContext): Stripe.Card {
    if (context.owner !== PLATFORM && context.owner !== accountId) throw noSuch('account', accountId, 'account');
    const account = this.account(accountId);
    const before = this.snapshot(account);
    const tokenId = requiredString(params, 'external_account');
    const cards = (this.state.externalAccounts[accountId] ??= []);
    const card = externalCard(this.state.tokens[tokenId], tokenId, accountId, cards.length === 0);
    if (params.default_for_currency === 'true') for (const other of cards) other.default_for_currency = false;
    if (params.default_for_currency === 'true' || cards.length === 0) card.default_for_currency = true;
    card.metadata = mergeMetadata({}, params);
    cards.push(card);
    evaluate(account, cards.length);
    this.emit('account.external_account.created', structuredClone(card), context, accountId);
    this.emitAccountUpdated(before, account, context);
    return card;
  }

  listExternalAccounts(accountId: string, params: Params, context: CallContext) {
    if (context.owner !== PLATFORM && context.owner !== accountId) throw noSuch('account', accountId, 'account');
    this.account(accountId);
    const objectFilter = optionalString(params, 'object');
    const cards = [...(this.state.externalAccounts[accountId] ?? [])].reverse();
    return page(objectFilter === 'bank_account' ? [] : cards, params, `/v1/accounts/${accountId}/external_accounts`);
  }

  // Balance

  balance(context: CallContext): Stripe.Balance {
    if (context.owner !== PLATFORM) this.account(context.owner);
    const funds = this.store.funds(context.owner);
    const currencies = new Set([...Object.keys(funds.available), ...Object.keys(funds.pending)]);
    if (currencies.size === 0) currencies.add('usd');
    const list = (amounts: Record<string, number>) =>
      [...currencies].map((code) => ({
        amount: amounts[code] ?? 0,
        currency: code,
        source_types: { card: amounts[code] ?? 0 },
      }));
    return { object: 'balance', available: list(funds.available), livemode: false, pending: list(funds.pending) };
  }

  // Payment intents

  createPaymentIntent(params: Params, context: CallContext): Stripe.PaymentIntent {
    this.platformOnly(context);
    const intent = newPaymentIntent(params);
    this.state.paymentIntents[intent.id] = intent;
    if (params.confirm === 'true') this.confirm(intent, params, context);
    return intent;
  }

  paymentIntent(id: string, context: CallContext): Stripe.PaymentIntent {
    this.platformOnly(context);
    const intent = this.state.paymentIntents[id];
    if (!intent) throw noSuch('payment_intent', id, 'intent');
    return intent;
  }

  listPaymentIntents(params: Params, context: CallContext) {
    this.platformOnly(context);
    return page(newestFirst(Object.values(this.state.paymentIntents)), params, '/v1/payment_intents');
  }

  confirmPaymentIntent(id: string, params: Params, context: CallContext): Stripe.PaymentIntent {
    const intent = this.paymentIntent(id, context);
    if (context.publishable) checkClientSecret(intent, params);
    this.confirm(intent, params, context);
    return intent;
  }

  private confirm(intent: Stripe.PaymentIntent, params: Params, context: CallContext): void {
    if (confirmPaymentIntent(intent, params, this.state.paymentMethods)) {
      const funds = this.store.funds(PLATFORM);
      funds.available[intent.currency] = (funds.available[intent.currency] ?? 0) + intent.amount;
      this.emit('payment_intent.succeeded', structuredClone(intent), context);
      return;
    }
    this.store.save();
    const error = intent.last_payment_error;
    throw new StripeApiError(402, 'card_error', error?.message ?? 'Your card was declined.', {
      code: 'card_declined',
      decline_code: 'generic_decline',
    });
  }

  // Transfers

  createTransfer(params: Params, context: CallContext): Stripe.Transfer {
    this.platformOnly(context);
    const value = amount(params);
    const code = currency(params);
    const destinationId = requiredString(params, 'destination');
    const destination = this.state.accounts[destinationId];
    if (!destination) throw noSuch('destination', destinationId, 'destination');
    if (destination.capabilities?.transfers !== 'active') {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments',
        { code: 'insufficient_capabilities_for_transfer', param: 'destination' },
      );
    }
    const platform = this.store.funds(PLATFORM);
    if ((platform.available[code] ?? 0) < value) {
      throw new StripeApiError(400, 'invalid_request_error', INSUFFICIENT_TRANSFER_FUNDS, {
        code: 'balance_insufficient',
      });
    }
    platform.available[code] = (platform.available[code] ?? 0) - value;
    const target = this.store.funds(destinationId);
    target.available[code] = (target.available[code] ?? 0) + value;
    const id = stripeId('tr');
    const transfer: Stripe.Transfer = {
      id,
      object: 'transfer',
      amount: value,
      amount_reversed: 0,
      balance_transaction: stripeId('txn'),
      created: unixNow(),
      currency: code,
      description: optionalString(params, 'description') ?? null,
      destination: destinationId,
      destination_payment: stripeId('py'),
      livemode: false,
      metadata: mergeMetadata({}, params),
      reversals: { object: 'list', data: [], has_more: false, url: `/v1/transfers/${id}/reversals` },
      reversed: false,
      source_transaction: optionalString(params, 'source_transaction') ?? null,
      source_type: 'card',
      transfer_group: optionalString(params, 'transfer_group') ?? null,
    };
    this.state.transfers[id] = transfer;
    this.emit('transfer.created', structuredClone(transfer), context);
    return transfer;
  }

  transfer(id: string, context: CallContext): Stripe.Transfer {
    this.platformOnly(context);
    const transfer = this.state.transfers[id];
    if (!transfer) throw noSuch('transfer', id);
    return transfer;
  }

  listTransfers(params: Params, context: CallContext) {
    this.platformOnly(context);
    const destination = optionalString(params, 'destination');
    const transfers = Object.values(this.state.transfers).filter(
      (transfer) => !destination || transfer.destination === destination,
    );
    return page(newestFirst(transfers), params, '/v1/transfers');
  }

  // Payouts

  createPayout(params: Params, context: CallContext): Stripe.Payout {
    if (context.owner === PLATFORM) {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        'The emulator pays out connected accounts only: send the Stripe-Account header.',
      );
    }
    const value = amount(params);
    const code = currency(params);
    const cards = this.state.externalAccounts[context.owner] ?? [];
    const destinationId = optionalString(params, 'destination');
    const card = destinationId
      ? cards.find((candidate) => candidate.id === destinationId)
      : cards.find((candidate) => candidate.default_for_currency);
    if (destinationId && !card) throw noSuch('external account', destinationId, 'destination');
    if (!card) {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        `You do not have a default external account for ${code}.`,
        { param: 'destination' },
      );
    }
    const method = optionalString(params, 'method') ?? 'standard';
    if (method !== 'standard' && method !== 'instant') {
      throw invalid('method', `Invalid method: must be one of standard or instant`);
    }
    if (method === 'instant' && !card.available_payout_methods?.includes('instant')) {
      throw new StripeApiError(400, 'invalid_request_error', 'This card is not eligible for Instant Payouts.', {
        code: 'instant_payouts_unsupported',
        param: 'method',
      });
    }
    const funds = this.store.funds(context.owner);
    if ((funds.available[code] ?? 0) < value) {
      throw new StripeApiError(400, 'invalid_request_error', INSUFFICIENT_PAYOUT_FUNDS, {
        code: 'balance_insufficient',
        param: 'amount',
      });
    }
    funds.available[code] = (funds.available[code] ?? 0) - value;
    const created = unixNow();
    const metadata = mergeMetadata({}, params);
    const payout: Stripe.Payout = {
      id: stripeId('po'),
      object: 'payout',
      amount: value,
      application_fee: null,
      application_fee_amount: null,
      arrival_date: created,
      automatic: false,
      balance_transaction: stripeId('txn'),
      created,
      currency: code,
      description: optionalString(params, 'description') ?? null,
      destination: card.id,
      failure_balance_transaction: null,
      failure_code: null,
      failure_message: null,
      livemode: false,
      metadata,
      method,
      original_payout: null,
      payout_method: null,
      reconciliation_status: 'not_applicable',
      reversed_by: null,
      source_type: 'card',
      statement_descriptor: optionalString(params, 'statement_descriptor') ?? null,
      status: 'pending',
      trace_id: null,
      type: 'card',
    };
    (this.state.payouts[context.owner] ??= []).push(payout);
    const owner = context.owner;
    this.later(() => this.settlePayout(owner, payout.id));
    return payout;
  }

  /** What the card network does later: the payout is paid, or fails and its amount returns to the balance. */
  private settlePayout(owner: string, payoutId: string): void {
    const payout = this.state.payouts[owner]?.find((candidate) => candidate.id === payoutId);
    if (!payout || payout.status !== 'pending') return;
    const context: CallContext = { owner, requestId: '', idempotencyKey: undefined };
    const card = this.state.externalAccounts[owner]?.find((candidate) => candidate.id === payout.destination);
    const failure =
      payout.metadata?.[FAIL_PAYOUT_METADATA.key] === FAIL_PAYOUT_METADATA.value
        ? { code: 'could_not_process', message: 'The bank could not process this payout.' }
        : payoutFailureOf(card);
    if (failure) {
      payout.status = 'failed';
      payout.failure_code = failure.code;
      payout.failure_message = failure.message;
      payout.failure_balance_transaction = stripeId('txn');
      const funds = this.store.funds(owner);
      funds.available[payout.currency] = (funds.available[payout.currency] ?? 0) + payout.amount;
      this.emit('payout.failed', structuredClone(payout), context, owner);
    } else {
      payout.status = 'paid';
      this.emit('payout.paid', structuredClone(payout), context, owner);
    }
    this.store.save();
  }

  payout(id: string, context: CallContext): Stripe.Payout {
    const payout = this.state.payouts[context.owner]?.find((candidate) => candidate.id === id);
    if (!payout) throw noSuch('payout', id);
    return payout;
  }

  listPayouts(params: Params, context: CallContext) {
    const status = optionalString(params, 'status');
    const payouts = (this.state.payouts[context.owner] ?? []).filter((payout) => !status || payout.status === status);
    return page(newestFirst(payouts), params, '/v1/payouts');
  }
}
