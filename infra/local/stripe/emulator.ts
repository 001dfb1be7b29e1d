import Stripe from 'stripe';
import {
  applyAccountParams,
  evaluate,
  fieldsToVerify,
  missingRequirements,
  newAccount,
  verificationOutcome,
  type IdNumberOutcome,
} from './accounts';
import {
  cardObject,
  cardToken,
  externalCard,
  payoutFailureOf,
  testCardByFingerprint,
  testCardByToken,
  type TestCard,
} from './cards';
import type { Clock } from './clock';
import { StripeApiError, invalid, missing, noAccess, noSuch } from './errors';
import { stripeId } from './ids';
import { DISPUTE_FEE_CENTS, availableOnAfter, cardFee, nextDayStart, record, release, sums } from './money';
import {
  amount,
  createdFilter,
  currency,
  mergeMetadata,
  optionalString,
  page,
  requiredString,
  type Params,
} from './params';
import {
  INSTANT_PAYOUT_MAXIMUM_CENTS,
  INSTANT_PAYOUT_MINIMUM_CENTS,
  InstantPayoutsControl,
  centralDay,
  instantPayoutFee,
} from './instant-payouts';
import {
  createCoupon,
  createPromotionCode,
  deleteCoupon,
  listCoupons,
  listPromotionCodes,
  retrieveCoupon,
  retrievePromotionCode,
  updateCoupon,
  updatePromotionCode,
} from './coupons';
import { cardPaymentMethod, cardToConfirm, checkClientSecret, newPaymentIntent } from './payments';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  notSignedUpForConnect,
  retrieveWebhookEndpoint,
  updateWebhookEndpoint,
} from './platform';
import { MAIN_PLATFORM, PLATFORM, type Store } from './store';
import type { WebhookSender } from './webhooks';

/** The API version of Stripe's OpenAPI document the emulator's answers are checked against. */
export const API_VERSION = '2024-04-10';
/** The API version events carry: the `stripe` SDK's own (`Stripe.API_VERSION`), as a webhook endpoint made for it receives. */
export const EVENT_API_VERSION: string = Stripe.API_VERSION;

/** The statuses Stripe cancels a payment intent from (POST /v1/payment_intents/{id}/cancel), in its error's order. */
export const CANCELABLE_INTENT_STATUSES = [
  'requires_payment_method',
  'requires_capture',
  'requires_confirmation',
  'requires_action',
  'processing',
] as const;
const CANCELLATION_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer', 'abandoned'] as const;

/** Metadata that makes a payout fail (`payout.failed`) instead of being paid: the emulator's own switch. */
export const FAIL_PAYOUT_METADATA = { key: 'emulator_outcome', value: 'failed' } as const;
/**
 * Metadata that makes a payout paid at its arrival (`payout.paid`), then failed (`payout.failed`):
 * "Some payouts that fail might initially show as paid, then change to failed"
 * (docs.stripe.com/api/payouts/object, `status`). The emulator's own switch.
 */
export const FAIL_AFTER_PAID_METADATA = { key: 'emulator_outcome', value: 'failed_after_paid' } as const;

export interface CallContext {
  /** `platform`, or the connected account named by the `Stripe-Account` header. */
  owner: string;
  requestId: string;
  idempotencyKey: string | undefined;
  /** Made with the publishable key (a browser's Stripe.js call): a confirmation must carry the intent's client_secret. */
  publishable?: boolean;
  /** The key as Stripe shows it in errors (`sk_test_****…abcd`). */
  maskedKey?: string;
  /** The platform the key opens (`main` unless `otherPlatformKeys` makes it another). */
  platform?: string;
}

export interface EmulatorSettings {
  /** Signed up for Connect (default yes): without it connected accounts are refused as Stripe refuses them (platform.ts). */
  platformConnect?: boolean;
  /** How long an identity check takes unless the details are Stripe's immediate-verification test values. */
  verificationDelayMs: number;
  /**
   * The platform account's own `settings.payouts.schedule.interval`: `daily` (Stripe's default, an
   * automatic payout of the whole available balance at each 00:00 UTC) or `manual` (the balance
   * stays). Set in Stripe's Dashboard (Settings → Payouts); the API reads it (`GET /v1/account`).
   */
  platformPayouts?: 'daily' | 'manual';
  /** Whether the platform may make Instant Payouts, and its daily volume (a test may change it while running). */
  instantPayouts?: InstantPayoutsControl;
}

/** The platform account's id as `GET /v1/account` answers it. */
export const PLATFORM_ACCOUNT_ID = 'acct_1EmulatorPlatform';
/** Stripe fails a refund left pending for want of funds after 45 days (support.stripe.com/questions/fix-your-pending-refund). */
export const PENDING_REFUND_FAILS_AFTER_SECONDS = 45 * 86_400;

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
    private readonly webhooks: { account?: WebhookSender | undefined; connect?: WebhookSender | undefined },
    /** Runs work that happens after the answer, as the card network settles a payout later. */
    private readonly later: (work: () => void) => void,
    private readonly clock: Clock,
    private readonly settings: EmulatorSettings,
  ) {
    this.openOldBalances();
    this.state.nextPayoutAt[PLATFORM] ??= nextDayStart(this.now);
  }

  private get state() {
    return this.store.state;
  }

  private get now(): number {
    return this.clock.unix();
  }

  /** A state file from before balance transactions: its balances become opening transactions, once. */
  private openOldBalances(): void {
    const old = this.state.balances;
    if (!old) return;
    for (const [owner, funds] of Object.entries(old)) {
      for (const [status, amounts] of [
        ['available', funds.available],
        ['pending', funds.pending],
      ] as const) {
        for (const [code, value] of Object.entries(amounts)) {
          if (!value) continue;
          record(this.state, {
            owner,
            amount: value,
            currency: code,
            type: 'adjustment',
            source: null,
            description: 'Opening balance',
            created: this.now,
            availableOn: status === 'available' ? this.now : this.now + 1,
          });
        }
      }
    }
    delete this.state.balances;
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

  /** A connected account the caller reaches, or Stripe's 403 for one it cannot (unknown, or another's). */
  reachable(id: string, context: CallContext): Stripe.Account {
    const account = this.state.accounts[id];
    if (
      !account ||
      (context.owner !== PLATFORM && context.owner !== id) ||
      (this.state.platforms[id] ?? MAIN_PLATFORM) !== (context.platform ?? MAIN_PLATFORM)
    ) {
      throw noAccess(context.maskedKey ?? 'sk_test_…', id);
    }
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
    object: object,
    context: CallContext,
    account?: string,
    previous?: Record<string, unknown>,
  ): void {
    const sender = account ? this.webhooks.connect : this.webhooks.account;
    const event = {
      id: stripeId('evt'),
      object: 'event',
      ...(account ? { account } : {}),
      api_version: EVENT_API_VERSION,
      created: this.now,
      // A snapshot: the stored objects change later, an event does not.
      data: structuredClone({ object, ...(previous ? { previous_attributes: previous } : {}) }),
      livemode: false,
      pending_webhooks: sender ? 1 : 0,
      request: { id: context.requestId || null, idempotency_key: context.idempotencyKey ?? null },
      type,
    } as unknown as Stripe.Event;
    this.state.events.push(event);
    sender?.send(structuredClone(event), () => {
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
    if (this.settings.platformConnect === false) throw notSignedUpForConnect();
    const { account, idNumber } = newAccount(params, (id) => `/v1/accounts/${id}/external_accounts`, this.now);
    this.state.accounts[account.id] = account;
    if ((context.platform ?? MAIN_PLATFORM) !== MAIN_PLATFORM) this.state.platforms[account.id] = context.platform!;
    this.state.nextPayoutAt[account.id] = nextDayStart(this.now);
    this.afterIdentityChange(account, idNumber, params.individual !== undefined);
    this.reevaluate(account);
    // Stripe announces a new account with account.updated, as Connect endpoints receive it.
    this.emit('account.updated', this.withExternalAccounts(account), context, account.id);
    return this.withExternalAccounts(account);
  }

  retrieveAccount(id: string | undefined, context: CallContext): Stripe.Account {
    const accountId = id ?? (context.owner === PLATFORM ? undefined : context.owner);
    if (!accountId) return this.platformAccount();
    return this.withExternalAccounts(this.reachable(accountId, context));
  }

  /**
   * The platform's own account as `GET /v1/account` answers it: what the portal's checks read, its
   * payout schedule above all (`settings.payouts.schedule`: `daily` with a 2-day delay, Stripe's
   * default for a US account, or `manual`).
   */
  private platformAccount(): Stripe.Account {
    const manual = this.settings.platformPayouts === 'manual';
    return {
      id: PLATFORM_ACCOUNT_ID,
      object: 'account',
      business_type: 'company',
      charges_enabled: true,
      country: 'US',
      created: 0,
      default_currency: 'usd',
      details_submitted: true,
      email: null,
      metadata: {},
      payouts_enabled: true,
      settings: {
        branding: { icon: null, logo: null, primary_color: null, secondary_color: null },
        card_payments: { decline_on: { avs_failure: false, cvc_failure: false }, statement_descriptor_prefix: null },
        dashboard: { display_name: 'Reseller portal (emulator)', timezone: 'Etc/UTC' },
        payments: { statement_descriptor: 'EMULATOR' },
        payouts: {
          debit_negative_balances: true,
          schedule: manual ? { delay_days: 2, interval: 'manual' } : { delay_days: 2, interval: 'daily' },
          statement_descriptor: null,
        },
      },
      type: 'standard',
    } as unknown as Stripe.Account;
  }

  updateAccount(id: string, params: Params, context: CallContext): Stripe.Account {
    this.platformOnly(context);
    const account = this.reachable(id, context);
    const before = this.snapshot(account);
    const idNumber = applyAccountParams(account, params, this.now);
    this.afterIdentityChange(account, idNumber, params.individual !== undefined);
    this.reevaluate(account);
    this.emitAccountUpdated(before, account, context);
    return this.withExternalAccounts(account);
  }

  private reevaluate(account: Stripe.Account): void {
    evaluate(account, this.state.externalAccounts[account.id]?.length ?? 0, this.state.verifications[account.id]);
  }

  /**
   * Starts Stripe's identity check once every requirement is given, again whenever the
   * individual's details change: immediate for Stripe's immediate-verification test values,
   * otherwise finished `verificationDelayMs` later on the emulator clock (runDue).
   */
  private afterIdentityChange(account: Stripe.Account, idNumber: IdNumberOutcome | undefined, changed: boolean): void {
    if (idNumber) this.state.idNumbers[account.id] = idNumber;
    const current = this.state.verifications[account.id];
    if (current && !changed) return;
    if (missingRequirements(account).length) {
      if (changed) delete this.state.verifications[account.id];
      return;
    }
    const { outcome, immediate, errors } = verificationOutcome(account, this.state.idNumbers[account.id]);
    this.state.verifications[account.id] = {
      status: immediate && outcome === 'verified' ? 'verified' : 'pending',
      dueAt: this.clock.now() + (immediate ? 0 : this.settings.verificationDelayMs),
      outcome,
      errors,
      fields: fieldsToVerify(account),
    };
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

  // Webhook endpoints (the platform's own: a connected account has none of its own here)

  createWebhookEndpoint(params: Params, context: CallContext): Stripe.WebhookEndpoint {
    this.platformOnly(context);
    return createWebhookEndpoint(this.state, params, this.now);
  }

  listWebhookEndpoints(params: Params, context: CallContext) {
    this.platformOnly(context);
    return listWebhookEndpoints(this.state, params);
  }

  retrieveWebhookEndpoint(id: string, context: CallContext): Stripe.WebhookEndpoint {
    this.platformOnly(context);
    return retrieveWebhookEndpoint(this.state, id);
  }

  updateWebhookEndpoint(id: string, params: Params, context: CallContext): Stripe.WebhookEndpoint {
    this.platformOnly(context);
    return updateWebhookEndpoint(this.state, id, params);
  }

  deleteWebhookEndpoint(id: string, context: CallContext): Stripe.DeletedWebhookEndpoint {
    this.platformOnly(context);
    return deleteWebhookEndpoint(this.state, id);
  }

  // Coupons and promotion codes (the platform's own)

  createCoupon(params: Params, context: CallContext): Stripe.Coupon {
    this.platformOnly(context);
    return createCoupon(this.state, params, this.now);
  }

  retrieveCoupon(id: string, context: CallContext): Stripe.Coupon {
    this.platformOnly(context);
    return retrieveCoupon(this.state, id, this.now);
  }

  updateCoupon(id: string, params: Params, context: CallContext): Stripe.Coupon {
    this.platformOnly(context);
    return updateCoupon(this.state, id, params, this.now);
  }

  deleteCoupon(id: string, context: CallContext): Stripe.DeletedCoupon {
    this.platformOnly(context);
    return deleteCoupon(this.state, id);
  }

  listCoupons(params: Params, context: CallContext) {
    this.platformOnly(context);
    return listCoupons(this.state, params, this.now);
  }

  createPromotionCode(params: Params, context: CallContext): Stripe.PromotionCode {
    this.platformOnly(context);
    return createPromotionCode(this.state, params, this.now);
  }

  retrievePromotionCode(id: string, context: CallContext): Stripe.PromotionCode {
    this.platformOnly(context);
    return retrievePromotionCode(this.state, id, this.now);
  }

  updatePromotionCode(id: string, params: Params, context: CallContext): Stripe.PromotionCode {
    this.platformOnly(context);
    return updatePromotionCode(this.state, id, params, this.now);
  }

  listPromotionCodes(params: Params, context: CallContext) {
    this.platformOnly(context);
    return listPromotionCodes(this.state, params, this.now);
  }

  listAccounts(params: Params, context: CallContext) {
    this.platformOnly(context);
    // Before the platform signed up for Connect it has no connected accounts to list.
    if (this.settings.platformConnect === false) return page([], params, '/v1/accounts');
    const mine = (account: Stripe.Account) =>
      (this.state.platforms[account.id] ?? MAIN_PLATFORM) === (context.platform ?? MAIN_PLATFORM);
    const accounts = newestFirst(
      Object.values(this.state.accounts)
        .filter(mine)
        .map((account) => ({ ...account, created: account.created ?? 0 })),
    );
    return page(
      accounts.map((account) => this.withExternalAccounts(account)),
      params,
      '/v1/accounts',
    );
  }

  // What happens with time: run by the clock's ticks and by clock.advance

  /** Finishes due identity checks, releases pending funds, runs scheduled payouts, pays the payouts that arrive, forgets expired idempotency keys. */
  runDue(): void {
    let changed = false;
    const now = this.clock.now();
    const system: CallContext = { owner: PLATFORM, requestId: '', idempotencyKey: undefined };
    for (const [accountId, verification] of Object.entries(this.state.verifications)) {
      const account = this.state.accounts[accountId];
      if (!account || verification.status !== 'pending' || verification.dueAt > now) continue;
      const before = this.snapshot(account);
      verification.status = verification.outcome;
      this.reevaluate(account);
      this.emitAccountUpdated(before, account, system);
      changed = true;
    }
    const released = release(this.state, this.now);
    for (const owner of released) {
      changed = true;
      if (owner === PLATFORM) this.emit('balance.available', this.balance(system), system);
    }
    // Pending refunds go out once the balance covers them (before any payout takes it).
    if (this.settlePendingRefunds(system)) changed = true;
    for (const [accountId, at] of Object.entries(this.state.nextPayoutAt)) {
      if (at > this.now) continue;
      this.state.nextPayoutAt[accountId] = nextDayStart(this.now);
      changed = true;
      if (accountId === PLATFORM) this.platformPayout();
      else this.scheduledPayout(accountId);
    }
    for (const payout of this.state.payouts[PLATFORM] ?? []) {
      if (payout.status === 'pending' && payout.arrival_date <= this.now) {
        payout.status = 'paid';
        changed = true;
      }
    }
    if (this.arrivePayouts()) changed = true;
    for (const [slot, saved] of Object.entries(this.state.idempotency)) {
      if ((saved.created ?? 0) + IDEMPOTENCY_KEY_LIFETIME_MS <= now) {
        delete this.state.idempotency[slot];
        changed = true;
      }
    }
    if (changed) this.store.save();
  }

  /**
   * Stripe's automatic payout of a daily schedule: the whole available balance, to the default
   * external account, `automatic: true`, no metadata. A manual schedule pays nothing out.
   */
  private scheduledPayout(accountId: string): void {
    const account = this.state.accounts[accountId];
    if (account?.settings?.payouts?.schedule?.interval !== 'daily' || !account.payouts_enabled) return;
    const card = (this.state.externalAccounts[accountId] ?? []).find((candidate) => candidate.default_for_currency);
    if (!card) return;
    const { available } = sums(this.state, accountId);
    for (const [code, value] of Object.entries(available)) {
      if (value <= 0) continue;
      this.payOut(
        accountId,
        { amount: value, currency: code, card, method: 'standard', automatic: true, params: {} },
        {
          owner: accountId,
          requestId: '',
          idempotencyKey: undefined,
        },
      );
    }
  }

  /**
   * The platform's automatic payout on Stripe's default schedule (daily): its whole available
   * balance to its bank account at 00:00 UTC, arriving the next day; nothing on a manual schedule
   * or with no positive balance. The portal subscribes to no payout event of its own account, so
   * none is sent (the payout is listed by `GET /v1/payouts`).
   */
  private platformPayout(): void {
    if (this.settings.platformPayouts === 'manual') return;
    const { available } = sums(this.state, PLATFORM);
    for (const [code, value] of Object.entries(available)) {
      if (value <= 0) continue;
      const id = stripeId('po');
      const transaction = record(this.state, {
        owner: PLATFORM,
        amount: -value,
        currency: code,
        type: 'payout',
        source: id,
        created: this.now,
        availableOn: this.now,
      });
      (this.state.payouts[PLATFORM] ??= []).push({
        id,
        object: 'payout',
        amount: value,
        application_fee: null,
        application_fee_amount: null,
        arrival_date: nextDayStart(this.now),
        automatic: true,
        balance_transaction: transaction.id,
        created: this.now,
        currency: code,
        description: 'STRIPE PAYOUT',
        destination: 'ba_emulatorplatformbank',
        failure_balance_transaction: null,
        failure_code: null,
        failure_message: null,
        livemode: false,
        metadata: {},
        method: 'standard',
        original_payout: null,
        payout_method: null,
        reconciliation_status: 'not_applicable',
        reversed_by: null,
        source_type: 'card',
        statement_descriptor: null,
        status: 'pending',
        trace_id: null,
        type: 'bank_account',
      });
    }
  }

  /**
   * Refunds held `pending` (`pending_reason: insufficient_funds`), oldest first: each goes out
   * (`succeeded`) once the platform's available balance is no longer negative; one left pending 45
   * days fails (`failure_reason: insufficient_funds`, its amount back). `refund.updated` or
   * `refund.failed`, and `charge.refund.updated`, say so. True when one changed.
   */
  private settlePendingRefunds(context: CallContext): boolean {
    let changed = false;
    const waiting = Object.values(this.state.refunds)
      .filter((refund) => refund.status === 'pending' && refund.pending_reason === 'insufficient_funds')
      .sort((a, b) => a.created - b.created);
    for (const refund of waiting) {
      if ((sums(this.state, PLATFORM).available[refund.currency] ?? 0) >= 0) {
        refund.status = 'succeeded';
        delete refund.pending_reason;
        this.emit('refund.updated', structuredClone(refund), context);
        this.emit('charge.refund.updated', structuredClone(refund), context);
        changed = true;
      } else if (refund.created + PENDING_REFUND_FAILS_AFTER_SECONDS <= this.now) {
        this.failRefundNow(refund, 'insufficient_funds');
        changed = true;
      }
    }
    return changed;
  }

  // Tokens and external accounts

  createToken(params: Params): Stripe.Token {
    if (params.card === undefined) throw missing('card');
    if (typeof params.card === 'string')
      throw invalid('card', 'The emulator makes card tokens from card details only.');
    const token = cardToken(params, this.now);
    this.state.tokens[token.id] = token;
    return token;
  }

  /** A fresh token for one of Stripe's `tok_…` test tokens (each use gets its own, as at Stripe). */
  private tokenFromTestCard(card: TestCard): Stripe.Token {
    const token: Stripe.Token = {
      id: stripeId('tok'),
      object: 'token',
      card: cardObject(card, 12, new Date(this.clock.now()).getUTCFullYear() + 5, null),
      client_ip: null,
      created: this.now,
      livemode: false,
      type: 'card',
      used: false,
    };
    this.state.tokens[token.id] = token;
    return token;
  }

  /** A card PaymentMethod from an unused card token (`type=card`, `card[token]`), as Stripe.js makes one. */
  createPaymentMethod(params: Params): Stripe.PaymentMethod {
    const method = cardPaymentMethod(params, this.state.tokens, this.now, (card) => this.tokenFromTestCard(card));
    this.state.paymentMethods[method.id] = method;
    return method;
  }

  createExternalAccount(accountId: string, params: Params, context: CallContext): Stripe.Card {
    const account = this.reachable(accountId, context);
    const before = this.snapshot(account);
    const given = requiredString(params, 'external_account');
    const testCard = testCardByToken(given);
    const tokenId = testCard ? this.tokenFromTestCard(testCard).id : given;
    const cards = (this.state.externalAccounts[accountId] ??= []);
    const card = externalCard(this.state.tokens[tokenId], tokenId, accountId, cards.length === 0);
    if (params.default_for_currency === 'true') for (const other of cards) other.default_for_currency = false;
    if (params.default_for_currency === 'true' || cards.length === 0) card.default_for_currency = true;
    card.metadata = mergeMetadata({}, params);
    cards.push(card);
    this.reevaluate(account);
    this.emit('account.external_account.created', structuredClone(card), context, accountId);
    this.emitAccountUpdated(before, account, context);
    return card;
  }

  /**
   * `DELETE /v1/accounts/{account}/external_accounts/{id}`: Stripe refuses to delete the default
   * external account of the account's default currency ("make another external account the
   * default using the `default_for_currency` param, and then delete this one"), so a card is
   * replaced by adding the new one with `default_for_currency=true` first. Answers the deleted
   * card (`{ id, object, currency, deleted: true }`) and sends `account.external_account.deleted`.
   */
  deleteExternalAccount(accountId: string, externalId: string, context: CallContext): Stripe.DeletedCard {
    const account = this.reachable(accountId, context);
    const cards = this.state.externalAccounts[accountId] ?? [];
    const index = cards.findIndex((card) => card.id === externalId);
    const card = cards[index];
    if (!card) throw noSuch('external account', externalId);
    if (card.default_for_currency && card.currency === (account.default_currency ?? 'usd')) {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        'You cannot delete the default external account for your default currency. Please make another external account the default using the `default_for_currency` param, and then delete this one.',
      );
    }
    const before = this.snapshot(account);
    cards.splice(index, 1);
    this.reevaluate(account);
    this.emit('account.external_account.deleted', structuredClone(card), context, accountId);
    this.emitAccountUpdated(before, account, context);
    return { id: card.id, object: 'card', currency: card.currency, deleted: true };
  }

  listExternalAccounts(accountId: string, params: Params, context: CallContext) {
    this.reachable(accountId, context);
    const objectFilter = optionalString(params, 'object');
    const cards = [...(this.state.externalAccounts[accountId] ?? [])].reverse();
    return page(objectFilter === 'bank_account' ? [] : cards, params, `/v1/accounts/${accountId}/external_accounts`);
  }

  // Balance and balance transactions

  balance(context: CallContext): Stripe.Balance {
    const funds = sums(this.state, context.owner);
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

  listBalanceTransactions(params: Params, context: CallContext) {
    const type = optionalString(params, 'type');
    const source = optionalString(params, 'source');
    const payout = optionalString(params, 'payout');
    const mine = Object.values(this.state.balanceTransactions)
      .filter(({ owner }) => owner === context.owner)
      .map(({ transaction }) => transaction)
      .filter(
        (transaction) =>
          (!type || transaction.type === type) &&
          (!source || transaction.source === source) &&
          (!payout || transaction.source === payout),
      );
    return page(newestFirst(mine), params, '/v1/balance_transactions');
  }

  balanceTransaction(id: string, context: CallContext): Stripe.BalanceTransaction {
    const found = this.state.balanceTransactions[id];
    if (!found || found.owner !== context.owner) throw noSuch('balance transaction', id);
    return found.transaction;
  }

  // Payment intents and charges

  createPaymentIntent(params: Params, context: CallContext): Stripe.PaymentIntent {
    this.platformOnly(context);
    const intent = newPaymentIntent(params, this.now, this.state.paymentMethods);
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

  /**
   * Cancels a payment intent as Stripe documents it: from requires_payment_method,
   * requires_confirmation, requires_action, requires_capture or processing, with an optional
   * `cancellation_reason` (duplicate, fraudulent, requested_by_customer, abandoned); `canceled_at`
   * set and a `payment_intent.canceled` event. Any other status (succeeded, canceled) is Stripe's
   * 400 `payment_intent_unexpected_state`. A canceled intent can no longer be confirmed.
   */
  cancelPaymentIntent(id: string, params: Params, context: CallContext): Stripe.PaymentIntent {
    const intent = this.paymentIntent(id, context);
    const reason = optionalString(params, 'cancellation_reason');
    if (reason !== undefined && !(CANCELLATION_REASONS as readonly string[]).includes(reason)) {
      throw invalid(
        'cancellation_reason',
        'Invalid cancellation_reason: must be one of duplicate, fraudulent, requested_by_customer, or abandoned',
      );
    }
    if (!(CANCELABLE_INTENT_STATUSES as readonly string[]).includes(intent.status)) {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        `You cannot cancel this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be canceled: ${CANCELABLE_INTENT_STATUSES.join(', ')}.`,
        { code: 'payment_intent_unexpected_state' },
      );
    }
    intent.status = 'canceled';
    intent.canceled_at = this.now;
    intent.cancellation_reason = (reason ?? null) as Stripe.PaymentIntent.CancellationReason | null;
    this.emit('payment_intent.canceled', structuredClone(intent), context);
    return intent;
  }

  charge(id: string, context: CallContext): Stripe.Charge {
    this.platformOnly(context);
    const charge = this.state.charges[id];
    if (!charge) throw noSuch('charge', id, 'charge');
    return charge;
  }

  listCharges(params: Params, context: CallContext) {
    this.platformOnly(context);
    const intent = optionalString(params, 'payment_intent');
    const created = createdFilter(params);
    const charges = Object.values(this.state.charges).filter(
      (charge) => (!intent || charge.payment_intent === intent) && created(charge.created),
    );
    return page(newestFirst(charges), params, '/v1/charges');
  }

  /**
   * Charges the card: a Charge (`latest_charge`), then, on success, a balance transaction with
   * Stripe's card fee netted, pending until `available_on` (available at once for the
   * available-balance card); a declining card leaves the intent waiting for a payment method and
   * answers 402 with the card's codes; a dispute card's payment succeeds and then is disputed.
   */
  private confirm(intent: Stripe.PaymentIntent, params: Params, context: CallContext): void {
    const card = cardToConfirm(intent, params, this.state.paymentMethods);
    const charge = this.newCharge(intent, card);
    intent.latest_charge = charge.id;
    const outcome = card.outcome;
    if (outcome.kind === 'declined') {
      charge.status = 'failed';
      charge.paid = false;
      charge.captured = false;
      charge.failure_code = outcome.code;
      charge.failure_message = outcome.message;
      charge.outcome = {
        ...charge.outcome!,
        network_status: 'declined_by_network',
        reason: outcome.declineCode,
        type: 'issuer_declined',
        seller_message: 'The bank did not return any further details with this decline.',
      };
      intent.status = 'requires_payment_method';
      intent.last_payment_error = {
        charge: charge.id,
        code: outcome.code,
        decline_code: outcome.declineCode,
        doc_url: `https://stripe.com/docs/error-codes/${outcome.code.replaceAll('_', '-')}`,
        message: outcome.message,
        type: 'card_error',
      } as Stripe.PaymentIntent.LastPaymentError;
      intent.payment_method = null;
      this.emit('charge.failed', structuredClone(charge), context);
      this.emit('payment_intent.payment_failed', structuredClone(intent), context);
      throw new StripeApiError(402, 'card_error', outcome.message, {
        code: outcome.code,
        decline_code: outcome.declineCode,
      });
    }
    const delayDays = 2;
    const transaction = record(this.state, {
      owner: PLATFORM,
      amount: intent.amount,
      currency: intent.currency,
      fee: cardFee(intent.amount),
      type: 'charge',
      source: charge.id,
      created: this.now,
      availableOn: outcome.kind === 'available' ? this.now : availableOnAfter(this.now, delayDays),
    });
    charge.balance_transaction = transaction.id;
    intent.status = 'succeeded';
    intent.amount_received = intent.amount;
    intent.last_payment_error = null;
    this.emit('charge.succeeded', structuredClone(charge), context);
    this.emit('payment_intent.succeeded', structuredClone(intent), context);
    if (outcome.kind === 'dispute') {
      const chargeId = charge.id;
      this.later(() => this.openDispute(chargeId, outcome.reason, outcome.status));
    }
  }

  private newCharge(intent: Stripe.PaymentIntent, card: TestCard): Stripe.Charge {
    const charge = {
      id: stripeId('ch'),
      object: 'charge',
      amount: intent.amount,
      amount_captured: intent.amount,
      amount_refunded: 0,
      application: null,
      application_fee: null,
      application_fee_amount: null,
      balance_transaction: null,
      billing_details: { address: null, email: null, name: null, phone: null },
      calculated_statement_descriptor: 'EMULATOR',
      captured: true,
      created: this.now,
      currency: intent.currency,
      customer: null,
      description: intent.description,
      disputed: false,
      failure_balance_transaction: null,
      failure_code: null,
      failure_message: null,
      fraud_details: {},
      livemode: false,
      metadata: { ...intent.metadata },
      on_behalf_of: null,
      outcome: {
        network_status: 'approved_by_network',
        reason: null,
        risk_level: 'normal',
        risk_score: 20,
        seller_message: 'Payment complete.',
        type: 'authorized',
      },
      paid: true,
      payment_intent: intent.id,
      payment_method: typeof intent.payment_method === 'string' ? intent.payment_method : null,
      payment_method_details: {
        type: 'card',
        card: {
          brand: card.brand.toLowerCase().replaceAll(' ', '_'),
          country: 'US',
          exp_month: 12,
          exp_year: new Date(this.clock.now()).getUTCFullYear() + 5,
          fingerprint: `fp${card.number.slice(-8)}`,
          funding: card.funding,
          last4: card.number.slice(-4),
        },
      },
      receipt_email: intent.receipt_email,
      receipt_number: null,
      receipt_url: null,
      refunded: false,
      review: null,
      shipping: intent.shipping,
      source_transfer: null,
      statement_descriptor: null,
      statement_descriptor_suffix: null,
      status: 'succeeded',
      transfer_data: null,
      transfer_group: intent.transfer_group,
    } as unknown as Stripe.Charge;
    this.state.charges[charge.id] = charge;
    return charge;
  }

  /**
   * The card holder's bank disputes the payment (all of it, or `amount` of it: a partial dispute,
   * as happens live): the amount and Stripe's dispute fee leave the balance. A chargeback cannot
   * be refunded (`is_charge_refundable` false, see `createRefund`); an inquiry can.
   */
  openDispute(chargeId: string, reason: string, status: Stripe.Dispute.Status, amount?: number): string | undefined {
    const charge = this.state.charges[chargeId];
    if (!charge) return undefined;
    const disputed = amount ?? charge.amount;
    const context: CallContext = { owner: PLATFORM, requestId: '', idempotencyKey: undefined };
    const inquiry = status === 'warning_needs_response';
    const transactions = inquiry
      ? []
      : [
          record(this.state, {
            owner: PLATFORM,
            amount: -disputed,
            currency: charge.currency,
            fee: DISPUTE_FEE_CENTS,
            feeDescription: 'Dispute fee',
            type: 'adjustment',
            source: chargeId,
            description: `Chargeback withdrawal for ${chargeId}`,
            created: this.now,
            availableOn: this.now,
          }),
        ];
    const dispute = {
      id: stripeId('dp'),
      object: 'dispute',
      amount: disputed,
      balance_transactions: transactions,
      charge: chargeId,
      created: this.now,
      currency: charge.currency,
      evidence: {},
      evidence_details: { due_by: this.now + 7 * 86_400, has_evidence: false, past_due: false, submission_count: 0 },
      is_charge_refundable: inquiry,
      livemode: false,
      metadata: {},
      payment_intent: charge.payment_intent,
      reason,
      status,
    } as unknown as Stripe.Dispute;
    this.state.disputes[dispute.id] = dispute;
    charge.disputed = true;
    this.emit('charge.dispute.created', structuredClone(dispute), context);
    if (!inquiry) this.emit('charge.dispute.funds_withdrawn', structuredClone(dispute), context);
    this.store.save();
    return dispute.id;
  }

  // Disputes

  dispute(id: string, context: CallContext): Stripe.Dispute {
    this.platformOnly(context);
    const dispute = this.state.disputes[id];
    if (!dispute) throw noSuch('dispute', id);
    return dispute;
  }

  listDisputes(params: Params, context: CallContext) {
    this.platformOnly(context);
    const charge = optionalString(params, 'charge');
    const intent = optionalString(params, 'payment_intent');
    const disputes = Object.values(this.state.disputes).filter(
      (dispute) => (!charge || dispute.charge === charge) && (!intent || dispute.payment_intent === intent),
    );
    return page(newestFirst(disputes), params, '/v1/disputes');
  }

  /**
   * Evidence for a dispute (docs.stripe.com/testing, "Disputes": in test mode the evidence
   * `uncategorized_text` decides): `winning_evidence` closes it won (the amount and the dispute fee
   * come back, `charge.dispute.funds_reinstated`), `losing_evidence` closes it lost; either first
   * goes `under_review` and closes after the answer (`charge.dispute.closed`). Other evidence is
   * kept and leaves it under review. `submit=false` only stages the evidence.
   */
  updateDispute(id: string, params: Params, context: CallContext): Stripe.Dispute {
    const dispute = this.dispute(id, context);
    if (['won', 'lost', 'warning_closed'].includes(dispute.status)) {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        `This dispute is already closed: ${dispute.id} has status ${dispute.status}.`,
      );
    }
    const evidence = (params.evidence ?? {}) as Record<string, unknown>;
    for (const [name, value] of Object.entries(evidence)) {
      if (typeof value === 'string') (dispute.evidence as unknown as Record<string, unknown>)[name] = value;
    }
    dispute.metadata = mergeMetadata(dispute.metadata ?? {}, params);
    const submit = params.submit === undefined || params.submit === 'true' || params.submit === true;
    if (submit && Object.keys(evidence).length > 0) {
      dispute.evidence_details = {
        ...dispute.evidence_details,
        has_evidence: true,
        submission_count: (dispute.evidence_details?.submission_count ?? 0) + 1,
      };
      const inquiry = dispute.status.startsWith('warning_');
      dispute.status = inquiry ? 'warning_under_review' : 'under_review';
      const text = evidence.uncategorized_text;
      if (text === 'winning_evidence' || text === 'losing_evidence') {
        const disputeId = dispute.id;
        this.later(() => this.closeDispute(disputeId, text === 'winning_evidence' ? 'won' : 'lost'));
      }
    }
    this.emit('charge.dispute.updated', structuredClone(dispute), context);
    return dispute;
  }

  /** Accepting a dispute (`POST /v1/disputes/{id}/close`): it is lost at once. */
  acceptDispute(id: string, context: CallContext): Stripe.Dispute {
    const dispute = this.dispute(id, context);
    if (['won', 'lost', 'warning_closed'].includes(dispute.status)) return dispute;
    this.closeDispute(id, 'lost');
    return this.state.disputes[id]!;
  }

  private closeDispute(id: string, outcome: 'won' | 'lost'): void {
    const dispute = this.state.disputes[id];
    if (!dispute || ['won', 'lost', 'warning_closed'].includes(dispute.status)) return;
    const context: CallContext = { owner: PLATFORM, requestId: '', idempotencyKey: undefined };
    const inquiry = dispute.status.startsWith('warning_');
    if (inquiry) {
      dispute.status = 'warning_closed';
    } else {
      dispute.status = outcome;
      // A won chargeback's payment can be refunded again; a lost one's cannot.
      dispute.is_charge_refundable = outcome === 'won';
      if (outcome === 'won') {
        // The amount and the dispute fee return to the balance.
        dispute.balance_transactions = [
          ...dispute.balance_transactions,
          record(this.state, {
            owner: PLATFORM,
            amount: dispute.amount + DISPUTE_FEE_CENTS,
            currency: dispute.currency,
            type: 'adjustment',
            source: String(dispute.charge),
            description: `Chargeback reversal for ${String(dispute.charge)}`,
            created: this.now,
            availableOn: this.now,
          }),
        ];
        this.emit('charge.dispute.funds_reinstated', structuredClone(dispute), context);
      }
    }
    this.emit('charge.dispute.closed', structuredClone(dispute), context);
    this.store.save();
  }

  // Refunds

  /**
   * A refund of all or part of a charge (by `charge` or `payment_intent`): it leaves the platform's
   * balance at once, `charge.refunded` follows; the refund-failure card's refund fails later
   * (`refund.failed`) and its amount comes back.
   */
  createRefund(params: Params, context: CallContext): Stripe.Refund {
    this.platformOnly(context);
    const chargeId = optionalString(params, 'charge');
    const intentId = optionalString(params, 'payment_intent');
    if (!chargeId && !intentId) throw missing('charge');
    const intent = intentId ? this.state.paymentIntents[intentId] : undefined;
    if (intentId && !intent) throw noSuch('payment_intent', intentId, 'payment_intent');
    const id = chargeId ?? (intent?.latest_charge ? String(intent.latest_charge) : undefined);
    const charge = id ? this.state.charges[id] : undefined;
    if (!charge || charge.status !== 'succeeded') {
      if (intent) {
        throw invalid(
          'payment_intent',
          `This PaymentIntent (${intent.id}) does not have a successful charge to refund.`,
          'charge_not_refundable',
        );
      }
      throw noSuch('charge', chargeId ?? '', 'charge');
    }
    // A charged-back payment cannot be refunded: Stripe answers `charge_disputed` ("The charge
    // you're attempting to refund has been charged back", docs.stripe.com/error-codes) while its
    // dispute's `is_charge_refundable` is false (docs.stripe.com/api/disputes/object): open or lost.
    const chargedBack = Object.values(this.state.disputes).some(
      (dispute) => dispute.charge === charge.id && !dispute.is_charge_refundable,
    );
    if (chargedBack) {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        `The charge you're attempting to refund has been charged back: ${charge.id} is disputed.`,
        { code: 'charge_disputed' },
      );
    }
    const left = charge.amount - charge.amount_refunded;
    if (left <= 0) {
      throw new StripeApiError(400, 'invalid_request_error', `Charge ${charge.id} has already been refunded.`, {
        code: 'charge_already_refunded',
      });
    }
    const value = params.amount === undefined ? left : amount(params);
    if (value > left) {
      const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;
      throw invalid(
        'amount',
        `Refund amount (${dollars(value)}) is greater than unrefunded amount on charge (${dollars(left)})`,
        'amount_too_large',
      );
    }
    const refundId = stripeId('re');
    // Too little available balance: the refund still takes the money (the balance goes negative)
    // but waits, pending, until the balance covers it (support.stripe.com, "Pending refunds due to
    // insufficient funds"; pending_reason, API 2025-04-30.basil).
    const covered = (sums(this.state, PLATFORM).available[charge.currency] ?? 0) >= value;
    const transaction = record(this.state, {
      owner: PLATFORM,
      amount: -value,
      currency: charge.currency,
      type: 'refund',
      source: refundId,
      created: this.now,
      availableOn: this.now,
    });
    const refund = {
      id: refundId,
      object: 'refund',
      amount: value,
      balance_transaction: transaction.id,
      charge: charge.id,
      created: this.now,
      currency: charge.currency,
      metadata: mergeMetadata({}, params),
      payment_intent: charge.payment_intent,
      reason: optionalString(params, 'reason') ?? null,
      receipt_number: null,
      source_transfer_reversal: null,
      status: covered ? 'succeeded' : 'pending',
      ...(covered ? {} : { pending_reason: 'insufficient_funds' }),
      transfer_reversal: null,
    } as unknown as Stripe.Refund;
    this.state.refunds[refundId] = refund;
    charge.amount_refunded += value;
    charge.refunded = charge.amount_refunded === charge.amount;
    this.emit('refund.created', structuredClone(refund), context);
    this.emit('charge.refunded', structuredClone(charge), context);
    if (testCardByFingerprint(charge.payment_method_details?.card?.fingerprint)?.outcome.kind === 'refund_fails') {
      this.later(() => this.failRefund(refundId));
    }
    return refund;
  }

  /** The refund-failure card's bank refuses the refund: it fails and its amount returns to the balance. */
  private failRefund(refundId: string): void {
    const refund = this.state.refunds[refundId];
    if (!refund || refund.status !== 'succeeded') return;
    this.failRefundNow(refund, 'expired_or_canceled_card');
    this.store.save();
  }

  /** A refund fails: its amount returns to the balance and to the charge (`refund.failed`, `charge.refund.updated`). */
  private failRefundNow(refund: Stripe.Refund, reason: string): void {
    const charge = this.state.charges[String(refund.charge)];
    if (!charge) return;
    refund.status = 'failed';
    delete refund.pending_reason;
    refund.failure_reason = reason;
    refund.failure_balance_transaction = record(this.state, {
      owner: PLATFORM,
      amount: refund.amount,
      currency: refund.currency,
      type: 'refund_failure',
      source: refund.id,
      created: this.now,
      availableOn: this.now,
    }).id;
    charge.amount_refunded -= refund.amount;
    charge.refunded = false;
    const context: CallContext = { owner: PLATFORM, requestId: '', idempotencyKey: undefined };
    this.emit('refund.failed', structuredClone(refund), context);
    this.emit('charge.refund.updated', structuredClone(refund), context);
  }

  refund(id: string, context: CallContext): Stripe.Refund {
    this.platformOnly(context);
    const refund = this.state.refunds[id];
    if (!refund) throw noSuch('refund', id);
    return refund;
  }

  listRefunds(params: Params, context: CallContext) {
    this.platformOnly(context);
    const charge = optionalString(params, 'charge');
    const intent = optionalString(params, 'payment_intent');
    const created = createdFilter(params);
    const refunds = Object.values(this.state.refunds).filter(
      (refund) =>
        (!charge || refund.charge === charge) &&
        (!intent || refund.payment_intent === intent) &&
        created(refund.created),
    );
    return page(newestFirst(refunds), params, '/v1/refunds');
  }

  // Transfer reversals

  /** Takes all or part of a transfer back from the connected account's balance (`transfer.reversed`). */
  createTransferReversal(transferId: string, params: Params, context: CallContext): Stripe.TransferReversal {
    const transfer = this.transfer(transferId, context);
    const left = transfer.amount - transfer.amount_reversed;
    const value = params.amount === undefined ? left : amount(params);
    if (left <= 0) {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        `Transfer ${transfer.id} has already been fully reversed.`,
      );
    }
    if (value > left) {
      throw invalid(
        'amount',
        `Transfer reversal amount (${value}) is greater than the amount left on the transfer (${left}).`,
      );
    }
    const destination = String(transfer.destination);
    const funds = sums(this.state, destination);
    if ((funds.available[transfer.currency] ?? 0) + (funds.pending[transfer.currency] ?? 0) < value) {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        `Insufficient funds in the destination account ${destination} to reverse this transfer.`,
        { code: 'balance_insufficient' },
      );
    }
    const id = stripeId('trr');
    const refundOfPayment = stripeId('pyr');
    const transaction = record(this.state, {
      owner: PLATFORM,
      amount: value,
      currency: transfer.currency,
      type: 'transfer_refund',
      source: id,
      created: this.now,
      availableOn: this.now,
    });
    record(this.state, {
      owner: destination,
      amount: -value,
      currency: transfer.currency,
      type: 'payment_refund',
      source: refundOfPayment,
      created: this.now,
      availableOn: this.now,
    });
    const reversal: Stripe.TransferReversal = {
      id,
      object: 'transfer_reversal',
      amount: value,
      balance_transaction: transaction.id,
      created: this.now,
      currency: transfer.currency,
      destination_payment_refund: refundOfPayment,
      metadata: mergeMetadata({}, params),
      source_refund: null,
      transfer: transfer.id,
    };
    transfer.amount_reversed += value;
    transfer.reversed = transfer.amount_reversed === transfer.amount;
    transfer.reversals.data.unshift(reversal);
    this.emit('transfer.reversed', structuredClone(transfer), context);
    return reversal;
  }

  listTransferReversals(transferId: string, params: Params, context: CallContext) {
    const transfer = this.transfer(transferId, context);
    return page(transfer.reversals.data, params, `/v1/transfers/${transferId}/reversals`);
  }

  // Transfers

  /**
   * A transfer to a connected account. Without `source_transaction` it draws on the platform's
   * available balance; with one (a charge), on that charge's funds even while they are pending,
   * up to what the charge can still fund, the destination's funds pending until the charge's
   * `available_on`.
   */
  createTransfer(params: Params, context: CallContext): Stripe.Transfer {
    this.platformOnly(context);
    const value = amount(params);
    const code = currency(params);
    const destinationId = requiredString(params, 'destination');
    const sourceId = optionalString(params, 'source_transaction');
    const destination = this.state.accounts[destinationId];
    if (
      !destination ||
      (this.state.platforms[destinationId] ?? MAIN_PLATFORM) !== (context.platform ?? MAIN_PLATFORM)
    ) {
      throw noSuch('destination', destinationId, 'destination');
    }
    if (destination.capabilities?.transfers !== 'active') {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments',
        { code: 'insufficient_capabilities_for_transfer', param: 'destination' },
      );
    }
    let availableOn = this.now;
    if (sourceId) {
      const charge = this.state.charges[sourceId];
      if (!charge || charge.status !== 'succeeded') throw noSuch('charge', sourceId, 'source_transaction');
      if (charge.currency !== code) {
        throw invalid(
          'currency',
          `The currency of source_transaction's balance transaction (${charge.currency}) must be the same as the transfer currency (${code}).`,
        );
      }
      const used = Object.values(this.state.transfers)
        .filter((transfer) => transfer.source_transaction === sourceId)
        .reduce((sum, transfer) => sum + transfer.amount - transfer.amount_reversed, 0);
      const left = charge.amount - charge.amount_refunded - used;
      if (value > left) {
        throw new StripeApiError(
          400,
          'invalid_request_error',
          `Insufficient funds in source_transaction '${sourceId}': the transfer amount (${value}) is greater than what the charge can still fund (${left}).`,
          { code: 'balance_insufficient', param: 'amount' },
        );
      }
      const funding = charge.balance_transaction
        ? this.state.balanceTransactions[String(charge.balance_transaction)]
        : undefined;
      availableOn = funding?.transaction.available_on ?? this.now;
    } else if ((sums(this.state, PLATFORM).available[code] ?? 0) < value) {
      throw new StripeApiError(400, 'invalid_request_error', INSUFFICIENT_TRANSFER_FUNDS, {
        code: 'balance_insufficient',
      });
    }
    const id = stripeId('tr');
    const payment = stripeId('py');
    const outgoing = record(this.state, {
      owner: PLATFORM,
      amount: -value,
      currency: code,
      type: 'transfer',
      source: id,
      created: this.now,
      availableOn,
    });
    record(this.state, {
      owner: destinationId,
      amount: value,
      currency: code,
      type: 'payment',
      source: payment,
      created: this.now,
      availableOn,
    });
    const transfer: Stripe.Transfer = {
      id,
      object: 'transfer',
      amount: value,
      amount_reversed: 0,
      balance_transaction: outgoing.id,
      created: this.now,
      currency: code,
      description: optionalString(params, 'description') ?? null,
      destination: destinationId,
      destination_payment: payment,
      livemode: false,
      metadata: mergeMetadata({}, params),
      reversals: { object: 'list', data: [], has_more: false, url: `/v1/transfers/${id}/reversals` },
      reversed: false,
      source_transaction: sourceId ?? null,
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
    const created = createdFilter(params);
    const transfers = Object.values(this.state.transfers).filter(
      (transfer) => (!destination || transfer.destination === destination) && created(transfer.created),
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
    if (method === 'instant') this.checkInstant(value, card, context);
    return this.payOut(
      context.owner,
      { amount: value, currency: code, card, method, automatic: false, params },
      context,
    );
  }

  /**
   * Stripe's checks of an Instant Payout (docs.stripe.com/connect/instant-payouts; the codes and
   * words of docs.stripe.com/error-codes): the card takes it, the amount is within 0.50–9,999 USD,
   * the platform is enabled for Instant Payouts and within its daily volume (US Central days).
   */
  private checkInstant(value: number, card: Stripe.Card, context: CallContext): void {
    const refuse = (code: string, message: string, param?: string) =>
      new StripeApiError(400, 'invalid_request_error', message, { code, ...(param ? { param } : {}) });
    if (!card.available_payout_methods?.includes('instant')) {
      throw refuse(
        'instant_payouts_unsupported',
        'This card is not eligible for Instant Payouts. Try a debit card from a supported bank.',
        'method',
      );
    }
    if (value < INSTANT_PAYOUT_MINIMUM_CENTS) {
      throw refuse(
        'amount_too_small',
        'The specified amount is less than the minimum amount allowed. Use a higher amount and try again. Instant Payouts must be at least $0.50 USD.',
        'amount',
      );
    }
    if (value > INSTANT_PAYOUT_MAXIMUM_CENTS) {
      throw refuse(
        'amount_too_large',
        'The specified amount is greater than the maximum amount allowed. Use a lower amount and try again. Instant Payouts can be at most $9,999.00 USD.',
        'amount',
      );
    }
    const control = this.settings.instantPayouts ?? new InstantPayoutsControl();
    if (!control.eligible) {
      throw refuse(
        'instant_payouts_config_disabled',
        'This connected account is not eligible for Instant Payouts. Ask the platform to enable Instant Payouts.',
      );
    }
    const platform = this.state.platforms[context.owner] ?? MAIN_PLATFORM;
    const today = centralDay(this.now);
    let used = 0;
    for (const [owner, payouts] of Object.entries(this.state.payouts)) {
      if (owner === PLATFORM || (this.state.platforms[owner] ?? MAIN_PLATFORM) !== platform) continue;
      for (const payout of payouts) {
        if (payout.method === 'instant' && payout.status !== 'failed' && centralDay(payout.created) === today)
          used += payout.amount;
      }
    }
    if (used + value > control.dailyLimitCents) {
      throw refuse(
        'instant_payouts_limit_exceeded',
        'You have reached your daily processing limits for Instant Payouts.',
      );
    }
  }

  /**
   * A payout from the owner's available balance, settled later. An instant one to a connected
   * account costs the platform Stripe's 1 % (a `stripe_fee` balance transaction of the platform's,
   * docs.stripe.com/connect/instant-payouts "Pricing"); the account gives the amount only.
   */
  private payOut(
    owner: string,
    what: {
      amount: number;
      currency: string;
      card: Stripe.Card;
      method: 'standard' | 'instant';
      automatic: boolean;
      params: Params;
    },
    context: CallContext,
  ): Stripe.Payout {
    if ((sums(this.state, owner).available[what.currency] ?? 0) < what.amount) {
      throw new StripeApiError(400, 'invalid_request_error', INSUFFICIENT_PAYOUT_FUNDS, {
        code: 'balance_insufficient',
        param: 'amount',
      });
    }
    const id = stripeId('po');
    const transaction = record(this.state, {
      owner,
      amount: -what.amount,
      currency: what.currency,
      type: 'payout',
      source: id,
      created: this.now,
      availableOn: this.now,
    });
    if (what.method === 'instant' && owner !== PLATFORM) {
      record(this.state, {
        owner: PLATFORM,
        amount: -instantPayoutFee(what.amount),
        currency: what.currency,
        type: 'stripe_fee',
        source: null,
        description: `Instant Payouts fee (Connect): ${id} of ${owner}`,
        created: this.now,
        availableOn: this.now,
      });
    }
    const payout: Stripe.Payout = {
      id,
      object: 'payout',
      amount: what.amount,
      application_fee: null,
      application_fee_amount: null,
      arrival_date: what.method === 'instant' ? this.now : nextDayStart(this.now),
      automatic: what.automatic,
      balance_transaction: transaction.id,
      created: this.now,
      currency: what.currency,
      description: optionalString(what.params, 'description') ?? null,
      destination: what.card.id,
      failure_balance_transaction: null,
      failure_code: null,
      failure_message: null,
      livemode: false,
      metadata: mergeMetadata({}, what.params),
      method: what.method,
      original_payout: null,
      payout_method: null,
      reconciliation_status: 'not_applicable',
      reversed_by: null,
      source_type: 'card',
      statement_descriptor: optionalString(what.params, 'statement_descriptor') ?? null,
      status: 'pending',
      trace_id: null,
      type: 'card',
    };
    (this.state.payouts[owner] ??= []).push(payout);
    this.emit('payout.created', structuredClone(payout), context, owner);
    this.later(() => this.settlePayout(owner, payout.id));
    return payout;
  }

  /**
   * What the card network does right after: the payout fails (its amount back in the balance,
   * `payout.failed`), or is on its way: an instant payout arrives at once (`payout.paid`), a
   * standard one is `in_transit` until its `arrival_date`, when `runDue` marks it paid
   * (docs.stripe.com/api/payouts/object: "A payout is pending until it's submitted to the bank,
   * when it becomes in_transit. The status changes to paid if the transaction succeeds").
   */
  private settlePayout(owner: string, payoutId: string): void {
    const payout = this.state.payouts[owner]?.find((candidate) => candidate.id === payoutId);
    if (!payout || payout.status !== 'pending') return;
    const card = this.state.externalAccounts[owner]?.find((candidate) => candidate.id === payout.destination);
    const failure =
      payout.metadata?.[FAIL_PAYOUT_METADATA.key] === FAIL_PAYOUT_METADATA.value
        ? { code: 'could_not_process', message: 'The bank could not process this payout.' }
        : payoutFailureOf(card);
    if (failure) {
      this.failPayout(owner, payout, failure);
    } else if (payout.arrival_date <= this.now) {
      this.payPayout(owner, payout);
    } else {
      payout.status = 'in_transit';
    }
    this.store.save();
  }

  /** The payout arrived (`payout.paid`); one marked to fail after it is paid then fails. */
  private payPayout(owner: string, payout: Stripe.Payout): void {
    payout.status = 'paid';
    this.emit('payout.paid', structuredClone(payout), { owner, requestId: '', idempotencyKey: undefined }, owner);
    if (payout.metadata?.[FAIL_AFTER_PAID_METADATA.key] === FAIL_AFTER_PAID_METADATA.value) {
      this.failPayout(owner, payout, { code: 'could_not_process', message: 'The bank could not process this payout.' });
    }
  }

  /**
   * The bank returned the payout: its amount back in the balance (`payout_failure`: "the balance
   * transaction that reverses the initial balance transaction and returns the funds from the failed
   * payout back in your balance", the Payout object's `failure_balance_transaction`), `payout.failed`.
   * An instant one to a connected account also gives the platform back the 1 % it was billed: Stripe
   * reverses every balance effect of a failed Instant Payout by an offsetting balance transaction
   * (docs.stripe.com/payouts/instant-payouts-with-advance-funding, "Reversal of failed or canceled Instant
   * Payouts"), and bills the fee on the Instant Payouts made, as part of the Connect fees
   * (docs.stripe.com/connect/instant-payouts, "Pricing"): a payout that failed was not made.
   */
  private failPayout(owner: string, payout: Stripe.Payout, failure: { code: string; message: string }): void {
    payout.status = 'failed';
    payout.failure_code = failure.code;
    payout.failure_message = failure.message;
    payout.failure_balance_transaction = record(this.state, {
      owner,
      amount: payout.amount,
      currency: payout.currency,
      type: 'payout_failure',
      source: payout.id,
      created: this.now,
      availableOn: this.now,
    }).id;
    if (payout.method === 'instant' && owner !== PLATFORM) {
      record(this.state, {
        owner: PLATFORM,
        amount: instantPayoutFee(payout.amount),
        currency: payout.currency,
        type: 'stripe_fee',
        source: null,
        description: `Instant Payouts fee returned (Connect): ${payout.id} of ${owner} failed`,
        created: this.now,
        availableOn: this.now,
      });
    }
    this.emit('payout.failed', structuredClone(payout), { owner, requestId: '', idempotencyKey: undefined }, owner);
  }

  /** A test's bank returning a paid payout (`returnPayout`): failed as any failed payout; false when it is not paid. */
  returnPaidPayout(owner: string, payoutId: string, code: string): boolean {
    const payout = this.state.payouts[owner]?.find((candidate) => candidate.id === payoutId);
    if (!payout || payout.status !== 'paid') return false;
    this.failPayout(owner, payout, { code, message: PAYOUT_RETURN_MESSAGES[code] ?? 'The bank returned this payout.' });
    this.store.save();
    return true;
  }

  /** The payouts in transit whose `arrival_date` has come are paid (`payout.paid` then); answers whether any was. */
  private arrivePayouts(): boolean {
    let changed = false;
    for (const [owner, payouts] of Object.entries(this.state.payouts)) {
      for (const payout of payouts) {
        if (payout.status !== 'in_transit' || payout.arrival_date > this.now) continue;
        this.payPayout(owner, payout);
        changed = true;
      }
    }
    return changed;
  }

  payout(id: string, context: CallContext): Stripe.Payout {
    const payout = this.state.payouts[context.owner]?.find((candidate) => candidate.id === id);
    if (!payout) throw noSuch('payout', id);
    return payout;
  }

  listPayouts(params: Params, context: CallContext) {
    const status = optionalString(params, 'status');
    const created = createdFilter(params);
    const payouts = (this.state.payouts[context.owner] ?? []).filter(
      (payout) => (!status || payout.status === status) && created(payout.created),
    );
    return page(newestFirst(payouts), params, '/v1/payouts');
  }
}

/** Stripe's failure messages of a payout the bank returned (docs.stripe.com/api/payouts/failures). */
const PAYOUT_RETURN_MESSAGES: Record<string, string> = {
  account_closed: 'The bank account has been closed.',
  could_not_process: 'The bank could not process this payout.',
  declined: 'The bank has declined this transfer.',
};

/** Stripe keeps an idempotency key's result 24 hours (docs.stripe.com/api/idempotent_requests). */
export const IDEMPOTENCY_KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
