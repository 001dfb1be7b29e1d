import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  FAIL_PAYOUT_METADATA,
  PAYOUT_FAILING_DEBIT_CARD,
  PUBLISHABLE_KEY_REFUSED,
  startStripeEmulator,
  type Exchange,
  type StripeEmulator,
} from './index';
import { loadStripeOpenApi } from './openapi';
import {
  StripeFaults,
  completeIndividual,
  customAccount,
  sdk,
  webhookReceiver,
  caught,
  openApiProblems,
  refusedAsUnknown,
} from './testing';

const WEBHOOK_SECRET = 'whsec_emulator_test_secret';
/** The publishable key of the emulator's pair, as the browser sends it. */
const PUBLISHABLE_KEY = 'pk_test_emulator_pair_4f2a9c';

let dataDir: string;
let emulator: StripeEmulator;
let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
let stripe: Stripe;
/** Every request the tests make and every answer, checked against Stripe's OpenAPI document at the end. */
const exchanges: Exchange[] = [];
const record = (exchange: Exchange) => void exchanges.push(exchange);
/** The test-only fault control; each test that injects leaves it spent (cleared after each test). */
const faults = new StripeFaults();

beforeAll(async () => {
  dataDir = join(mkdtempSync(join(tmpdir(), 'stripe-emulator-')), 'data');
  receiver = await webhookReceiver({ failFirst: 1 });
  emulator = await startStripeEmulator({
    dataDir,
    // A key of this test's own (Stripe shows it as sk_test_****ator in its messages).
    secretKey: 'sk_test_emulator',
    webhookUrl: receiver.url,
    webhookSecret: WEBHOOK_SECRET,
    webhookRetryDelaysMs: [1, 1, 1],
    log: () => undefined,
    onExchange: record,
    publishableKey: PUBLISHABLE_KEY,
    faults,
  });
  stripe = sdk(emulator.port, emulator.secretKey);
});

afterAll(async () => {
  await emulator.stop();
  await receiver.stop();
  rmSync(join(dataDir, '..'), { recursive: true, force: true });
});

afterEach(async () => {
  faults.clear();
  await emulator.idle();
});

const token = async (number: string) =>
  stripe.tokens.create({ card: { number, exp_month: '12', exp_year: '2034', cvc: '123', currency: 'usd' } });

/** A connected account with everything `transfers` needs and a debit card to pay out to. */
async function onboarded(): Promise<Stripe.Account> {
  const account = await stripe.accounts.create(customAccount);
  await stripe.accounts.update(account.id, completeIndividual);
  await stripe.accounts.createExternalAccount(account.id, { external_account: (await token('4000056655665556')).id });
  return stripe.accounts.retrieve(account.id);
}

/** Money on the platform's available balance, from a card payment with Stripe's available-balance card (net of its fee). */
async function fundPlatform(amount: number): Promise<void> {
  await stripe.paymentIntents.create({
    amount,
    currency: 'usd',
    payment_method: 'pm_card_bypassPending',
    confirm: true,
  });
}

describe('authentication', () => {
  it('refuses a request without a key with 401 and Stripe’s error shape', async () => {
    const response = await fetch(`${emulator.url}/v1/balance`);
    expect(response.status).toBe(401);
    expect(response.headers.get('request-id')).toMatch(/^req_/);
    const body = (await response.json()) as { error: { type: string; message: string } };
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toMatch(/^You did not provide an API key/);
  });

  it('refuses a key that is not a test secret key', async () => {
    const error = await caught(sdk(emulator.port, 'pk_test_publishable').balance.retrieve());
    expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect(error.statusCode).toBe(401);
    expect(error.message).toMatch(/^Invalid API Key provided: /);
  });

  it('refuses a made-up sk_test_ key as Stripe refuses an invalid key (401), and it changes nothing; its own key works', async () => {
    // A buyer's payment: what a made-up key reached for (the buyer's e-mail and address, a refund).
    const intent = await stripe.paymentIntents.create({
      amount: 2500,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
      receipt_email: 'buyer@example.com',
      shipping: {
        name: 'Bea Buyer',
        address: { line1: '1 Main St', city: 'Springfield', state: 'IL', postal_code: '62701', country: 'US' },
      },
    });
    const charge = String(intent.latest_charge);
    const eventsBefore = (await stripe.events.list({ limit: 100 })).data.map((event) => event.id);
    const madeUp = sdk(emulator.port, 'sk_test_madeUpByAnyoneOnThisMachine1234');
    const expected = 'Invalid API Key provided: sk_test_***************************1234';
    for (const call of [
      madeUp.charges.retrieve(charge),
      madeUp.charges.list(),
      madeUp.paymentIntents.retrieve(intent.id),
      madeUp.refunds.create({ payment_intent: intent.id, amount: 2500 }),
      madeUp.accounts.list(),
    ]) {
      const error = await caught(call);
      expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
      expect(error.statusCode).toBe(401);
      expect(error.type).toBe('StripeAuthenticationError');
      expect(error.rawType).toBe('invalid_request_error');
      expect(error.code).toBeUndefined();
      expect(error.message).toBe(expected);
    }
    // Stripe's body, as the wire carries it: the type and the message, no code.
    const response = await fetch(`${emulator.url}/v1/charges/${charge}`, {
      headers: { Authorization: 'Bearer sk_test_madeUpByAnyoneOnThisMachine1234' },
    });
    expect(response.status).toBe(401);
    const body = (await response.json()) as { error: Record<string, unknown> };
    expect(body.error).toMatchObject({ type: 'invalid_request_error', message: expected });
    expect(body.error.code).toBeUndefined();
    expect(JSON.stringify(body)).not.toContain('buyer@example.com');
    // Nothing moved: no refund, no event; the platform's own key reads the buyer's payment as it was.
    expect((await stripe.refunds.list({ payment_intent: intent.id })).data).toEqual([]);
    const kept = await stripe.charges.retrieve(charge);
    expect(kept.amount_refunded).toBe(0);
    expect(kept.receipt_email).toBe('buyer@example.com');
    expect((await stripe.events.list({ limit: 100 })).data.map((event) => event.id)).toEqual(eventsBefore);
  });

  it('refuses a key of another mode or kind, and its own key with anything around it', async () => {
    for (const key of [
      'sk_live_madeUpByAnyoneOnThisMachine1234',
      'rk_test_madeUpByAnyoneOnThisMachine1234',
      `${emulator.secretKey}x`,
      emulator.secretKey.slice(0, -1),
      emulator.secretKey.toUpperCase(),
    ]) {
      const error = await caught(sdk(emulator.port, key).balance.retrieve());
      expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
      expect(error.message).toMatch(/^Invalid API Key provided: /);
    }
    const twice = await fetch(`${emulator.url}/v1/balance`, {
      headers: { Authorization: `Bearer ${emulator.secretKey} ${emulator.secretKey}` },
    });
    expect(twice.status).toBe(401);
  });

  /** A request exactly as a browser sends it: form-encoded, the publishable key as the bearer. */
  const browserPost = (path: string, form: Record<string, string>, key = PUBLISHABLE_KEY) =>
    fetch(`${emulator.url}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
  const cardForm = {
    'card[number]': '4000056655665556',
    'card[exp_month]': '12',
    'card[exp_year]': '2034',
    'card[cvc]': '123',
    'card[currency]': 'usd',
  };

  it('accepts the publishable key of its pair for a card token, as Stripe.js makes one', async () => {
    const response = await browserPost('/v1/tokens', cardForm);
    expect(response.status).toBe(200);
    const token = (await response.json()) as Stripe.Token;
    expect(token.id).toMatch(/^tok_/);
    expect(token.card?.funding).toBe('debit');
    expect(token.card?.currency).toBe('usd');
  });

  it('accepts the publishable key for confirming a payment intent with its client_secret', async () => {
    const intent = await stripe.paymentIntents.create({ amount: 1200, currency: 'usd' });
    const response = await browserPost(`/v1/payment_intents/${intent.id}/confirm`, {
      payment_method: 'pm_card_visa',
      client_secret: intent.client_secret ?? '',
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as Stripe.PaymentIntent).status).toBe('succeeded');
  });

  it('refuses a browser confirmation without the intent’s client_secret, or with another, as Stripe does', async () => {
    const intent = await stripe.paymentIntents.create({ amount: 1200, currency: 'usd' });
    const other = await stripe.paymentIntents.create({ amount: 1200, currency: 'usd' });
    const without = await browserPost(`/v1/payment_intents/${intent.id}/confirm`, { payment_method: 'pm_card_visa' });
    expect(without.status).toBe(400);
    expect(((await without.json()) as { error: { param: string } }).error.param).toBe('client_secret');
    const wrong = await browserPost(`/v1/payment_intents/${intent.id}/confirm`, {
      payment_method: 'pm_card_visa',
      client_secret: other.client_secret ?? '',
    });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: { message: string } }).error.message).toMatch(/client_secret provided/);
    expect((await stripe.paymentIntents.retrieve(intent.id)).status).toBe('requires_payment_method');
  });

  it('pays a payment intent in the browser as Stripe.js does: card token, card PaymentMethod, confirm', async () => {
    const intent = await stripe.paymentIntents.create({ amount: 2400, currency: 'usd' });
    const token = (await (
      await browserPost('/v1/tokens', { ...cardForm, 'card[number]': '4242424242424242' })
    ).json()) as Stripe.Token;
    const methodResponse = await browserPost('/v1/payment_methods', { type: 'card', 'card[token]': token.id });
    expect(methodResponse.status).toBe(200);
    const method = (await methodResponse.json()) as Stripe.PaymentMethod;
    expect(method.id).toMatch(/^pm_/);
    expect(method.card?.last4).toBe('4242');
    const again = await browserPost('/v1/payment_methods', { type: 'card', 'card[token]': token.id });
    expect(again.status).toBe(400);
    const confirmed = await browserPost(`/v1/payment_intents/${intent.id}/confirm`, {
      payment_method: method.id,
      client_secret: intent.client_secret ?? '',
    });
    expect(confirmed.status).toBe(200);
    const paid = (await confirmed.json()) as Stripe.PaymentIntent;
    expect(paid.status).toBe('succeeded');
    expect(paid.payment_method).toBe(method.id);
  });

  it('refuses the publishable key on every other call with Stripe’s message', async () => {
    const balance = await caught(sdk(emulator.port, PUBLISHABLE_KEY).balance.retrieve());
    expect(balance.statusCode).toBe(401);
    expect(balance.message).toBe(PUBLISHABLE_KEY_REFUSED);
    const account = await caught(sdk(emulator.port, PUBLISHABLE_KEY).accounts.create(customAccount));
    expect(account.message).toBe(PUBLISHABLE_KEY_REFUSED);
    const intent = await browserPost('/v1/payment_intents', { amount: '1200', currency: 'usd' });
    expect(intent.status).toBe(401);
    expect(((await intent.json()) as { error: { message: string } }).error.message).toBe(PUBLISHABLE_KEY_REFUSED);
  });

  it('refuses a publishable key that is not its pair’s as an invalid key', async () => {
    const response = await browserPost('/v1/tokens', cardForm, 'pk_test_someone_elses_key');
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /^Invalid API Key provided: /,
    );
  });

  it('answers an unknown path with 404 invalid_request_error', async () => {
    const response = await fetch(`${emulator.url}/v1/subscriptions`, {
      headers: { Authorization: `Bearer ${emulator.secretKey}` },
    });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');
  });
});

describe('accounts', () => {
  it('creates a Custom-equivalent account whose transfers capability waits for its requirements', async () => {
    const account = await stripe.accounts.create(customAccount);
    expect(account.id).toMatch(/^acct_/);
    expect(account.type).toBe('custom');
    expect(account.controller).toMatchObject({ requirement_collection: 'application', is_controller: true });
    expect(account.capabilities?.transfers).toBe('inactive');
    expect(account.payouts_enabled).toBe(false);
    expect(account.requirements?.currently_due).toEqual(
      expect.arrayContaining([
        'business_profile.url',
        'individual.dob.day',
        'individual.first_name',
        'individual.ssn_last_4',
        'tos_acceptance.date',
        'external_account',
      ]),
    );
    expect(account.lastResponse.requestId).toMatch(/^req_/);
  });

  it('activates transfers once the requirements are met, and lists what is still due', async () => {
    const created = await stripe.accounts.create(customAccount);
    const partial = await stripe.accounts.update(created.id, {
      individual: { first_name: 'Jenny', last_name: 'Rosen' },
    });
    expect(partial.requirements?.currently_due).toContain('individual.dob.day');
    expect(partial.requirements?.currently_due).not.toContain('individual.first_name');

    const updated = await stripe.accounts.update(created.id, completeIndividual);
    expect(updated.capabilities?.transfers).toBe('active');
    expect(updated.requirements?.currently_due).toEqual(['external_account']);
    expect(updated.payouts_enabled).toBe(false);
    expect(updated.individual?.ssn_last_4_provided).toBe(true);
    expect(updated.individual?.dob).toEqual({ day: 1, month: 1, year: 1902 });

    const retrieved = await stripe.accounts.retrieve(created.id);
    expect(retrieved.capabilities?.transfers).toBe('active');
    expect(retrieved.business_profile?.url).toBe('https://seller.example.com');
  });

  it('accepts an id number in place of the SSN last 4', async () => {
    const created = await stripe.accounts.create(customAccount);
    const { ssn_last_4: _ssn, ...individual } = completeIndividual.individual;
    const updated = await stripe.accounts.update(created.id, {
      ...completeIndividual,
      individual: { ...individual, id_number: '000000000' },
    });
    expect(updated.capabilities?.transfers).toBe('active');
  });

  it('lists accounts newest first, a page at a time', async () => {
    const first = await stripe.accounts.create(customAccount);
    const second = await stripe.accounts.create(customAccount);
    const list = await stripe.accounts.list({ limit: 2 });
    expect(list.object).toBe('list');
    expect(list.data.map((account) => account.id)).toEqual([second.id, first.id]);
    expect(list.has_more).toBe(true);
    const next = await stripe.accounts.list({ limit: 1, starting_after: first.id });
    expect(next.data).toHaveLength(1);
  });

  it('refuses a parameter Stripe does not document, at any depth, as Stripe does', async () => {
    const account = await stripe.accounts.create(customAccount);
    const nested = await caught(
      stripe.accounts.update(account.id, {
        individual: { first_name: 'Jenny', nickname: 'J' },
      } as Stripe.AccountUpdateParams),
    );
    expect(nested.statusCode).toBe(400);
    expect(nested.code).toBe('parameter_unknown');
    expect(nested.param).toBe('individual[nickname]');
    expect(nested.message).toBe('Received unknown parameter: individual[nickname]');
    const query = await caught(stripe.accounts.list({ colour: 'red' } as Stripe.AccountListParams));
    expect(query.param).toBe('colour');
    const response = await fetch(`${emulator.url}/v1/accounts/${account.id}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${emulator.secretKey}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'metadata[any_key]=1&tos_acceptance[date]=1700000000&expand[]=individual',
    });
    expect(response.status).toBe(200);
  });

  it('answers GET /v1/account with the connected account named by Stripe-Account, and 403 for an unknown one', async () => {
    const account = await stripe.accounts.create(customAccount);
    const own = await stripe.accounts.retrieveCurrent({}, { stripeAccount: account.id });
    expect(own.id).toBe(account.id);
    const error = await caught(stripe.balance.retrieve({}, { stripeAccount: 'acct_unknown' }));
    expect(error.statusCode).toBe(403);
    expect(error.code).toBe('account_invalid');
  });

  it('answers GET /v1/account without Stripe-Account with the platform’s own account and its payout schedule', async () => {
    const platform = await stripe.accounts.retrieveCurrent();
    expect(platform.id).toMatch(/^acct_/);
    expect(platform.settings?.payouts?.schedule).toEqual({ interval: 'daily', delay_days: 2 });
    expect((await stripe.accounts.retrieveCurrent()).id).toBe(platform.id);
  });

  it('answers 403 for an account it cannot reach, as Stripe does (not 404), on every call naming it', async () => {
    const retrieve = await caught(stripe.accounts.retrieve('acct_unknown'));
    expect(retrieve.statusCode).toBe(403);
    expect(retrieve).toBeInstanceOf(Stripe.errors.StripePermissionError);
    expect(retrieve.code).toBe('account_invalid');
    expect(retrieve.message).toBe(
      "The provided key 'sk_test_****ator' does not have access to account 'acct_unknown' (or that account does not exist). Application access may have been revoked.",
    );
    const update = await caught(stripe.accounts.update('acct_unknown', { metadata: { a: 'b' } }));
    expect(update.statusCode).toBe(403);
    const asAccount = await caught(stripe.payouts.list({}, { stripeAccount: 'acct_unknown' }));
    expect(asAccount.statusCode).toBe(403);
    expect(asAccount.message).toMatch(/does not have access to account 'acct_unknown'/);
  });
});

describe('tokens and external accounts', () => {
  it('tells debit cards from credit cards by Stripe’s test numbers', async () => {
    expect((await token('4000056655665556')).card).toMatchObject({ funding: 'debit', brand: 'Visa', last4: '5556' });
    expect((await token('5200828282828210')).card).toMatchObject({ funding: 'debit', brand: 'MasterCard' });
    expect((await token('4242424242424242')).card).toMatchObject({ funding: 'credit', brand: 'Visa' });
  });

  it('makes a token of 4000000000000002 and declines it when it is charged, as Stripe does', async () => {
    const declining = await token('4000000000000002');
    const method = await stripe.paymentMethods.create({ type: 'card', card: { token: declining.id } });
    const error = await caught(
      stripe.paymentIntents.create({ amount: 900, currency: 'usd', payment_method: method.id, confirm: true }),
    );
    expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(error.statusCode).toBe(402);
    expect(error.code).toBe('card_declined');
    expect(error.decline_code).toBe('generic_decline');
    expect(error.message).toBe('Your card was declined.');
  });

  it('refuses a credit card as an external account with Stripe’s message', async () => {
    const account = await stripe.accounts.create(customAccount);
    const error = await caught(
      stripe.accounts.createExternalAccount(account.id, { external_account: (await token('4242424242424242')).id }),
    );
    expect(error.statusCode).toBe(400);
    expect(error.type).toBe('StripeInvalidRequestError');
    expect(error.param).toBe('external_account');
    expect(error.message).toBe("This card doesn't appear to be a debit card.");
  });

  it('adds a debit card, enables payouts and lists it', async () => {
    const account = await stripe.accounts.create(customAccount);
    await stripe.accounts.update(account.id, completeIndividual);
    const card = await stripe.accounts.createExternalAccount(account.id, {
      external_account: (await token('5200828282828210')).id,
    });
    expect(card).toMatchObject({ object: 'card', account: account.id, funding: 'debit', default_for_currency: true });
    const after = await stripe.accounts.retrieve(account.id);
    expect(after.payouts_enabled).toBe(true);
    expect(after.requirements?.currently_due).toEqual([]);
    const list = await stripe.accounts.listExternalAccounts(account.id, { object: 'card' });
    expect(list.data.map((item) => item.id)).toEqual([card.id]);
  });

  it('refuses a token used twice', async () => {
    const account = await stripe.accounts.create(customAccount);
    const debit = await token('4000056655665556');
    await stripe.accounts.createExternalAccount(account.id, { external_account: debit.id });
    const error = await caught(stripe.accounts.createExternalAccount(account.id, { external_account: debit.id }));
    expect(error.code).toBe('token_already_used');
  });
});

describe('payment intents and the balance', () => {
  it('moves from requires_payment_method through requires_confirmation to succeeded, adding to the pending balance net of the fee', async () => {
    const before = await stripe.balance.retrieve();
    const usd = (balance: Stripe.Balance) => balance.pending.find((entry) => entry.currency === 'usd')?.amount ?? 0;
    const intent = await stripe.paymentIntents.create({ amount: 5000, currency: 'usd' });
    expect(intent.status).toBe('requires_payment_method');
    const confirmedWithout = await caught(stripe.paymentIntents.confirm(intent.id));
    expect(confirmedWithout.statusCode).toBe(400);

    const withMethod = await stripe.paymentIntents.create({
      amount: 5000,
      currency: 'usd',
      payment_method: 'pm_card_visa',
    });
    expect(withMethod.status).toBe('requires_confirmation');
    const confirmed = await stripe.paymentIntents.confirm(withMethod.id);
    expect(confirmed.status).toBe('succeeded');
    expect(confirmed.amount_received).toBe(5000);
    expect((await stripe.paymentIntents.retrieve(withMethod.id)).status).toBe('succeeded');
    // 2.9 % + 30¢ of $50.00 is $1.75.
    expect(usd(await stripe.balance.retrieve())).toBe(usd(before) + 5000 - 175);
  });

  it('declines pm_card_chargeDeclined with card_declined and leaves the intent waiting for a payment method', async () => {
    const intent = await stripe.paymentIntents.create({
      amount: 700,
      currency: 'usd',
      payment_method: 'pm_card_chargeDeclined',
    });
    const error = await caught(stripe.paymentIntents.confirm(intent.id));
    expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(error.code).toBe('card_declined');
    const after = await stripe.paymentIntents.retrieve(intent.id);
    expect(after.status).toBe('requires_payment_method');
    expect(after.last_payment_error?.code).toBe('card_declined');
  });
});

describe('cancelling a payment intent', () => {
  it('cancels from requires_payment_method or requires_confirmation with its reason, emits payment_intent.canceled, and refuses a confirmation after', async () => {
    const waiting = await stripe.paymentIntents.create({ amount: 1200, currency: 'usd' });
    const canceled = await stripe.paymentIntents.cancel(waiting.id, { cancellation_reason: 'abandoned' });
    expect(canceled).toMatchObject({ id: waiting.id, status: 'canceled', cancellation_reason: 'abandoned' });
    expect(canceled.canceled_at).toEqual(expect.any(Number));
    const [event] = (await stripe.events.list({ type: 'payment_intent.canceled', limit: 1 })).data;
    expect((event?.data.object as Stripe.PaymentIntent).id).toBe(waiting.id);

    const withMethod = await stripe.paymentIntents.create({
      amount: 1200,
      currency: 'usd',
      payment_method: 'pm_card_visa',
    });
    expect((await stripe.paymentIntents.cancel(withMethod.id)).status).toBe('canceled');
    const confirmAfter = await caught(stripe.paymentIntents.confirm(withMethod.id));
    expect(confirmAfter.statusCode).toBe(400);
    expect(confirmAfter.code).toBe('payment_intent_unexpected_state');
    expect((await stripe.paymentIntents.retrieve(withMethod.id)).status).toBe('canceled');
  });

  it('refuses to cancel a succeeded or canceled intent with Stripe’s answer', async () => {
    const paid = await stripe.paymentIntents.create({
      amount: 1500,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
    });
    const refused = await caught(stripe.paymentIntents.cancel(paid.id));
    expect(refused.statusCode).toBe(400);
    expect(refused.code).toBe('payment_intent_unexpected_state');
    expect(refused.message).toBe(
      'You cannot cancel this PaymentIntent because it has a status of succeeded. Only a PaymentIntent with one of the following statuses may be canceled: requires_payment_method, requires_capture, requires_confirmation, requires_action, processing.',
    );
    const open = await stripe.paymentIntents.create({ amount: 900, currency: 'usd' });
    await stripe.paymentIntents.cancel(open.id);
    const twice = await caught(stripe.paymentIntents.cancel(open.id));
    expect(twice.message).toContain('it has a status of canceled');
  });
});

describe('payment intents: limits, options and the list', () => {
  it('refuses an amount under $0.50 or over $999,999.99 as Stripe does, creating nothing', async () => {
    const before = (await stripe.paymentIntents.list({ limit: 100 })).data.length;
    const small = await caught(stripe.paymentIntents.create({ amount: 49, currency: 'usd' }));
    expect([small.statusCode, small.code, small.param]).toEqual([400, 'amount_too_small', 'amount']);
    expect(small.message).toBe('Amount must be at least $0.50 usd');
    const large = await caught(stripe.paymentIntents.create({ amount: 100_000_000, currency: 'usd' }));
    expect([large.statusCode, large.code]).toEqual([400, 'amount_too_large']);
    expect((await stripe.paymentIntents.list({ limit: 100 })).data.length).toBe(before);
  });

  it('answers automatic_payment_methods as asked, and keeps the metadata', async () => {
    const intent = await stripe.paymentIntents.create({
      amount: 1234,
      currency: 'usd',
      automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
      metadata: { product_id: 'p1', qty: '2' },
    });
    expect(intent.automatic_payment_methods).toEqual({ enabled: true, allow_redirects: 'never' });
    expect(intent.metadata).toEqual({ product_id: 'p1', qty: '2' });
    expect(intent.client_secret).toMatch(new RegExp(`^${intent.id}_secret_`));
    const plain = await stripe.paymentIntents.create({ amount: 1234, currency: 'usd' });
    expect(plain.automatic_payment_methods).toEqual({ enabled: true, allow_redirects: 'always' });
  });

  it('lists payment intents newest first, a page at a time, for the platform only', async () => {
    const first = await stripe.paymentIntents.create({ amount: 501, currency: 'usd' });
    const second = await stripe.paymentIntents.create({ amount: 502, currency: 'usd' });
    const list = await stripe.paymentIntents.list({ limit: 2 });
    expect(list.object).toBe('list');
    expect(list.url).toBe('/v1/payment_intents');
    expect(list.data.map((intent) => intent.id)).toEqual([second.id, first.id]);
    const next = await stripe.paymentIntents.list({ limit: 1, starting_after: second.id });
    expect(next.data.map((intent) => intent.id)).toEqual([first.id]);
    const account = await stripe.accounts.create(customAccount);
    const error = await caught(stripe.paymentIntents.list({}, { stripeAccount: account.id }));
    expect(error.statusCode).toBe(400);
  });
});

describe('transfers and payouts', () => {
  it('transfers from the platform’s available balance to a connected account, and refuses more than there is', async () => {
    const account = await onboarded();
    await fundPlatform(2000);
    const platform = await stripe.balance.retrieve();
    const available = platform.available.find((entry) => entry.currency === 'usd')?.amount ?? 0;

    const tooMuch = await caught(
      stripe.transfers.create({ amount: available + 1, currency: 'usd', destination: account.id }),
    );
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.code).toBe('balance_insufficient');
    expect(tooMuch.message).toMatch(/^You have insufficient available funds in your Stripe account/);

    const transfer = await stripe.transfers.create({
      amount: 1500,
      currency: 'usd',
      destination: account.id,
      metadata: { commission: 'c1' },
    });
    expect(transfer).toMatchObject({ object: 'transfer', amount: 1500, destination: account.id, reversed: false });
    expect(transfer.metadata).toEqual({ commission: 'c1' });
    expect((await stripe.transfers.retrieve(transfer.id)).amount).toBe(1500);
    const listed = await stripe.transfers.list({ destination: account.id });
    expect(listed.data.map((item) => item.id)).toEqual([transfer.id]);

    const connected = await stripe.balance.retrieve({}, { stripeAccount: account.id });
    expect(connected.available).toEqual([expect.objectContaining({ amount: 1500, currency: 'usd' })]);
    const after = await stripe.balance.retrieve();
    expect(after.available.find((entry) => entry.currency === 'usd')?.amount).toBe(available - 1500);
  });

  it('refuses a transfer to an account whose transfers capability is not active', async () => {
    const account = await stripe.accounts.create(customAccount);
    await fundPlatform(100);
    const error = await caught(stripe.transfers.create({ amount: 100, currency: 'usd', destination: account.id }));
    expect(error.code).toBe('insufficient_capabilities_for_transfer');
  });

  it('pays out a connected account’s balance to its debit card, and the payout is paid', async () => {
    const account = await onboarded();
    await fundPlatform(3000);
    await stripe.transfers.create({ amount: 3000, currency: 'usd', destination: account.id });
    const tooMuch = await caught(
      stripe.payouts.create({ amount: 3001, currency: 'usd' }, { stripeAccount: account.id }),
    );
    expect(tooMuch.code).toBe('balance_insufficient');

    const payout = await stripe.payouts.create({ amount: 2500, currency: 'usd' }, { stripeAccount: account.id });
    expect(payout).toMatchObject({ object: 'payout', amount: 2500, status: 'pending', type: 'card' });
    expect(payout.destination).toBe(account.external_accounts?.data[0]?.id);
    const balance = await stripe.balance.retrieve({}, { stripeAccount: account.id });
    expect(balance.available[0]?.amount).toBe(500);

    // On its way until its arrival_date (paid then: test-mode.test.ts, "payouts as Stripe pays them").
    await emulator.idle();
    const listed = await stripe.payouts.list({}, { stripeAccount: account.id });
    expect(listed.data.map((item) => [item.id, item.status])).toEqual([[payout.id, 'in_transit']]);
    expect((await stripe.payouts.list({})).data.map((item) => item.id)).not.toContain(payout.id);
  });

  it('fails the designated payout and gives its amount back', async () => {
    const account = await onboarded();
    await fundPlatform(800);
    await stripe.transfers.create({ amount: 800, currency: 'usd', destination: account.id });
    const payout = await stripe.payouts.create(
      { amount: 800, currency: 'usd', metadata: { [FAIL_PAYOUT_METADATA.key]: FAIL_PAYOUT_METADATA.value } },
      { stripeAccount: account.id },
    );
    await emulator.idle();
    const failed = await stripe.payouts.retrieve(payout.id, {}, { stripeAccount: account.id });
    expect(failed).toMatchObject({ status: 'failed', failure_code: 'could_not_process' });
    const balance = await stripe.balance.retrieve({}, { stripeAccount: account.id });
    expect(balance.available[0]?.amount).toBe(800);
  });
});

describe('instant payouts and Stripe’s failing debit card', () => {
  it('pays out instantly to a debit card that lists instant in its available payout methods, the platform billed the fee', async () => {
    const account = await onboarded();
    expect((account.external_accounts?.data[0] as Stripe.Card).available_payout_methods).toContain('instant');
    await fundPlatform(1200);
    await stripe.transfers.create({ amount: 1000, currency: 'usd', destination: account.id });
    const tooMuch = await caught(
      stripe.payouts.create({ amount: 1001, currency: 'usd', method: 'instant' }, { stripeAccount: account.id }),
    );
    expect(tooMuch.code).toBe('balance_insufficient');
    const platformBefore = (await stripe.balance.retrieve()).available[0]?.amount ?? 0;
    const payout = await stripe.payouts.create(
      { amount: 1000, currency: 'usd', method: 'instant' },
      { stripeAccount: account.id },
    );
    expect(payout).toMatchObject({ method: 'instant', status: 'pending' });
    // docs.stripe.com/connect/instant-payouts ("Pricing"): Stripe charges the platform 1 % of every
    // Instant Payout, as part of its Connect fees; the connected account gives the amount only.
    const moved = await stripe.balanceTransactions.retrieve(
      String(payout.balance_transaction),
      {},
      { stripeAccount: account.id },
    );
    expect(moved).toMatchObject({ type: 'payout', amount: -1000, fee: 0, net: -1000 });
    expect((await stripe.balance.retrieve({}, { stripeAccount: account.id })).available[0]?.amount).toBe(0);
    expect((await stripe.balance.retrieve()).available[0]?.amount).toBe(platformBefore - 10);
    const [fee] = (await stripe.balanceTransactions.list({ type: 'stripe_fee', limit: 1 })).data;
    expect(fee).toMatchObject({ amount: -10, net: -10, type: 'stripe_fee', reporting_category: 'fee' });
    expect(fee?.description).toContain(payout.id);
    await emulator.idle();
    expect((await stripe.payouts.retrieve(payout.id, {}, { stripeAccount: account.id })).status).toBe('paid');
  });

  it('fails every payout to 4000056655665572 with could_not_process, sends payout.failed with the account, and gives the amount back', async () => {
    const account = await stripe.accounts.create(customAccount);
    await stripe.accounts.update(account.id, completeIndividual);
    await stripe.accounts.createExternalAccount(account.id, {
      external_account: (await token(PAYOUT_FAILING_DEBIT_CARD)).id,
    });
    await fundPlatform(700);
    await stripe.transfers.create({ amount: 700, currency: 'usd', destination: account.id });
    const payout = await stripe.payouts.create({ amount: 700, currency: 'usd' }, { stripeAccount: account.id });
    expect(payout.status).toBe('pending');
    await emulator.idle();
    const failed = await stripe.payouts.retrieve(payout.id, {}, { stripeAccount: account.id });
    expect(failed).toMatchObject({
      status: 'failed',
      failure_code: 'could_not_process',
      failure_message: 'The bank could not process this payout.',
    });
    const events = await stripe.events.list({ type: 'payout.failed' }, { stripeAccount: account.id });
    expect(events.data.map((event) => [event.account, (event.data.object as Stripe.Payout).id])).toEqual([
      [account.id, payout.id],
    ]);
    const balance = await stripe.balance.retrieve({}, { stripeAccount: account.id });
    expect(balance.available[0]?.amount).toBe(700);
  });

  it('a failed instant payout gives the account its amount and the platform its 1 % back', async () => {
    const account = await stripe.accounts.create(customAccount);
    await stripe.accounts.update(account.id, completeIndividual);
    await stripe.accounts.createExternalAccount(account.id, {
      external_account: (await token(PAYOUT_FAILING_DEBIT_CARD)).id,
    });
    await fundPlatform(7000);
    await stripe.transfers.create({ amount: 5941, currency: 'usd', destination: account.id });
    const platformBefore = (await stripe.balance.retrieve()).available[0]?.amount ?? 0;
    const payout = await stripe.payouts.create(
      { amount: 5941, currency: 'usd', method: 'instant' },
      { stripeAccount: account.id },
    );
    await emulator.idle();
    const failed = await stripe.payouts.retrieve(payout.id, {}, { stripeAccount: account.id });
    expect(failed).toMatchObject({ status: 'failed', method: 'instant', failure_code: 'could_not_process' });
    // The Payout object's failure_balance_transaction "reverses the initial balance transaction and
    // returns the funds from the failed payout back in your balance" (docs.stripe.com/api/payouts/object).
    const back = await stripe.balanceTransactions.retrieve(
      String(failed.failure_balance_transaction),
      {},
      { stripeAccount: account.id },
    );
    expect(back).toMatchObject({ type: 'payout_failure', amount: 5941, net: 5941, source: payout.id });
    expect((await stripe.balance.retrieve({}, { stripeAccount: account.id })).available[0]?.amount).toBe(5941);
    // docs.stripe.com/payouts/instant-payouts-with-advance-funding ("Reversal of failed or canceled
    // Instant Payouts"): each balance effect of a failed Instant Payout is reversed by an offsetting
    // balance transaction; the 1 % Connect fee (docs.stripe.com/connect/instant-payouts, "Pricing")
    // is billed on Instant Payouts made, so the platform's is given back.
    const fees = (await stripe.balanceTransactions.list({ type: 'stripe_fee', limit: 100 })).data.filter((fee) =>
      fee.description?.includes(payout.id),
    );
    expect(fees.map((fee) => fee.amount).sort((a, b) => a - b)).toEqual([-59, 59]);
    expect((await stripe.balance.retrieve()).available[0]?.amount).toBe(platformBefore);
  });
});

describe('idempotency', () => {
  it('replays the first response for the same key and parameters', async () => {
    const account = await onboarded();
    await fundPlatform(1000);
    const first = await stripe.transfers.create(
      { amount: 400, currency: 'usd', destination: account.id },
      { idempotencyKey: 'transfer-once' },
    );
    const again = await stripe.transfers.create(
      { amount: 400, currency: 'usd', destination: account.id },
      { idempotencyKey: 'transfer-once' },
    );
    expect(again.id).toBe(first.id);
    expect(again.lastResponse.headers['idempotent-replayed']).toBe('true');
    expect(first.lastResponse.headers['idempotent-replayed']).toBeUndefined();
    const balance = await stripe.balance.retrieve({}, { stripeAccount: account.id });
    expect(balance.available[0]?.amount).toBe(400);
  });

  it('refuses the same key with other parameters with idempotency_error', async () => {
    const account = await onboarded();
    await fundPlatform(1000);
    await stripe.transfers.create(
      { amount: 100, currency: 'usd', destination: account.id },
      { idempotencyKey: 'key-2' },
    );
    const error = await caught(
      stripe.transfers.create({ amount: 200, currency: 'usd', destination: account.id }, { idempotencyKey: 'key-2' }),
    );
    expect(error).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect(error.statusCode).toBe(400);
    expect(error.message).toBe(
      "Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than 'key-2' if you meant to execute a different request.",
    );
  });
});

describe('events and webhooks', () => {
  const verified = (delivery: { payload: string; signature: string }): Stripe.Event =>
    stripe.webhooks.constructEvent(delivery.payload, delivery.signature, WEBHOOK_SECRET);

  it('posts signed events that the SDK verifies, retrying a failed delivery', async () => {
    const account = await onboarded();
    await fundPlatform(600);
    const transfer = await stripe.transfers.create({ amount: 600, currency: 'usd', destination: account.id });
    const payout = await stripe.payouts.create({ amount: 600, currency: 'usd' }, { stripeAccount: account.id });

    const updated = verified(await receiver.next('account.updated'));
    expect(updated.type).toBe('account.updated');
    expect(updated.account).toMatch(/^acct_/);
    expect(verified(await receiver.next('payment_intent.succeeded')).type).toBe('payment_intent.succeeded');
    await emulator.idle();
    const transferEvents = await Promise.all(
      receiver.deliveries.map(verified).filter((event) => event.type === 'transfer.created'),
    );
    expect(transferEvents.map((event) => (event.data.object as Stripe.Transfer).id)).toContain(transfer.id);
    const paid = receiver.deliveries.map(verified).filter((event) => event.type === 'payout.created');
    expect(paid.map((event) => (event.data.object as Stripe.Payout).id)).toContain(payout.id);
    expect(paid.find((event) => (event.data.object as Stripe.Payout).id === payout.id)?.account).toBe(account.id);
    // The first delivery was answered 500 and retried.
    expect(receiver.attempts()).toBe(receiver.deliveries.length + 1);
  });

  it('refuses a payload signed with another secret', async () => {
    const delivery = await receiver.next('transfer.created');
    expect(() => stripe.webhooks.constructEvent(delivery.payload, delivery.signature, 'whsec_other')).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
  });

  it('retrieves one event, only as its owner', async () => {
    const [latest] = (await stripe.events.list({ limit: 1 })).data;
    expect(latest).toBeDefined();
    expect((await stripe.events.retrieve(latest!.id)).id).toBe(latest!.id);
    const account = await stripe.accounts.create(customAccount);
    const error = await caught(stripe.events.retrieve(latest!.id, {}, { stripeAccount: account.id }));
    expect(error.statusCode).toBe(404);
  });

  it('keeps each event as it was when it happened', async () => {
    const account = await stripe.accounts.create(customAccount);
    await stripe.accounts.update(account.id, { individual: { first_name: 'Jenny' } });
    await stripe.accounts.update(account.id, { individual: { first_name: 'Jane' } });
    const events = await stripe.events.list({ type: 'account.updated' }, { stripeAccount: account.id });
    const names = events.data.map((event) => (event.data.object as Stripe.Account).individual?.first_name);
    // The oldest is Stripe's account.updated for the new account.
    expect(names).toEqual(['Jane', 'Jenny', undefined]);
    expect(events.data[0]?.data.previous_attributes).toMatchObject({ individual: { first_name: 'Jenny' } });
  });

  it('sends account.updated (and account.external_account.created) for every card added, as Stripe does', async () => {
    const account = await onboarded();
    const count = async () =>
      (await stripe.events.list({ type: 'account.updated', limit: 100 }, { stripeAccount: account.id })).data.length;
    const before = await count();
    const second = await stripe.accounts.createExternalAccount(account.id, {
      external_account: (await token('5200828282828210')).id,
    });
    expect(await count()).toBe(before + 1);
    const [latest] = (await stripe.events.list({ type: 'account.updated', limit: 1 }, { stripeAccount: account.id }))
      .data;
    const cards = (latest!.data.object as Stripe.Account).external_accounts?.data.map((card) => card.id);
    expect(cards).toContain(second.id);
    expect(latest!.data.previous_attributes).toHaveProperty('external_accounts');
    const created = await stripe.events.list(
      { type: 'account.external_account.created', limit: 1 },
      { stripeAccount: account.id },
    );
    expect((created.data[0]?.data.object as Stripe.Card).id).toBe(second.id);
  });

  it('lists the platform’s events and a connected account’s events apart', async () => {
    const account = await onboarded();
    const platformEvents = await stripe.events.list({ limit: 100 });
    expect(platformEvents.data.every((event) => event.account === undefined)).toBe(true);
    expect(platformEvents.data.map((event) => event.type)).toContain('transfer.created');
    const accountEvents = await stripe.events.list({ type: 'account.updated' }, { stripeAccount: account.id });
    expect(accountEvents.data.length).toBeGreaterThan(0);
    expect(accountEvents.data.every((event) => event.account === account.id)).toBe(true);
  });
});

describe('webhook endpoints', () => {
  it('registers, lists, updates and deletes endpoints as Stripe does, the secret in the creation’s answer only', async () => {
    const made = await stripe.webhookEndpoints.create({
      url: 'https://portal.example.com/api/stripeWebhook',
      enabled_events: ['payment_intent.succeeded', 'charge.refunded'],
    });
    expect(made.id).toMatch(/^we_/);
    expect(made.secret).toMatch(/^whsec_/);
    expect(made).toMatchObject({ status: 'enabled', api_version: null, livemode: false });
    const listed = await stripe.webhookEndpoints.list({ limit: 100 });
    const found = listed.data.find((one) => one.id === made.id);
    expect(found?.enabled_events).toEqual(['payment_intent.succeeded', 'charge.refunded']);
    expect(found?.secret).toBeUndefined();
    const disabled = await stripe.webhookEndpoints.update(made.id, { disabled: true, enabled_events: ['*'] });
    expect(disabled).toMatchObject({ status: 'disabled', enabled_events: ['*'] });
    expect((await stripe.webhookEndpoints.retrieve(made.id)).status).toBe('disabled');
    expect((await stripe.webhookEndpoints.del(made.id)).deleted).toBe(true);
    const gone = await caught(stripe.webhookEndpoints.retrieve(made.id));
    expect(gone.statusCode).toBe(404);
    expect(gone.message).toBe(`No such webhook endpoint: '${made.id}'`);
  });
});

describe('persistence', () => {
  it('keeps accounts and balances across a restart, in a private file', async () => {
    const account = await onboarded();
    await fundPlatform(900);
    await stripe.transfers.create({ amount: 900, currency: 'usd', destination: account.id });
    const { port, secretKey } = emulator;
    await emulator.stop();
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dataDir, 'state.json')).mode & 0o777).toBe(0o600);

    emulator = await startStripeEmulator({
      dataDir,
      port,
      secretKey,
      log: () => undefined,
      onExchange: record,
      faults,
    });
    const again = await stripe.accounts.retrieve(account.id);
    expect(again.capabilities?.transfers).toBe('active');
    expect(again.payouts_enabled).toBe(true);
    const balance = await stripe.balance.retrieve({}, { stripeAccount: account.id });
    expect(balance.available[0]?.amount).toBe(900);
  });
});

describe('faults for one test', () => {
  /** A client that retries as the adapter's does (same idempotency key on every retry), with a short timeout. */
  const retrying = (timeout = 80_000) =>
    new Stripe(emulator.secretKey, {
      host: '127.0.0.1',
      port: emulator.port,
      protocol: 'http',
      maxNetworkRetries: 2,
      timeout,
    });
  const transfersTo = async (account: string) => (await stripe.transfers.list({ destination: account })).data;

  it('answers 429 as Stripe’s rate limiter, before any work, to the matching requests only', async () => {
    const account = await onboarded();
    await fundPlatform(1000);
    faults.inject({ method: 'POST', path: '/v1/transfers', fault: { kind: 'status', status: 429 }, times: 2 });
    // Another method or path is not affected.
    expect(await transfersTo(account.id)).toEqual([]);
    for (let i = 0; i < 2; i++) {
      const error = await caught(
        stripe.transfers.create({ amount: 100, currency: 'usd', destination: account.id }, { idempotencyKey: 'rl-1' }),
      );
      expect(error).toBeInstanceOf(Stripe.errors.StripeRateLimitError);
      expect(error.statusCode).toBe(429);
      expect(error.code).toBe('rate_limit');
    }
    expect(faults.pending()).toBe(0);
    expect(await transfersTo(account.id)).toEqual([]);
    // Nothing was kept for the key: the same key now runs the call.
    const transfer = await stripe.transfers.create(
      { amount: 100, currency: 'usd', destination: account.id },
      { idempotencyKey: 'rl-1' },
    );
    expect(transfer.lastResponse.headers['idempotent-replayed']).toBeUndefined();
    expect((await transfersTo(account.id)).map((item) => item.id)).toEqual([transfer.id]);
  });

  it('answers 500 before any work; the SDK’s retries send the same key and make one object', async () => {
    faults.inject({ method: 'POST', path: '/v1/accounts', fault: { kind: 'status', status: 500 }, times: 2 });
    const before = (await stripe.accounts.list({ limit: 100 })).data.length;
    const account = await retrying().accounts.create(customAccount, { idempotencyKey: 'acct-500' });
    expect(faults.faulted.map((request) => [request.fault, request.idempotencyKey])).toEqual([
      ['status', 'acct-500'],
      ['status', 'acct-500'],
    ]);
    const after = (await stripe.accounts.list({ limit: 100 })).data;
    expect(after).toHaveLength(before + 1);
    expect(after[0]?.id).toBe(account.id);
  });

  it('drops the connection after the work; the retry with the same key replays the same object', async () => {
    const account = await onboarded();
    await fundPlatform(1000);
    faults.inject({ method: 'POST', path: '/v1/transfers', fault: { kind: 'drop' }, times: 2 });
    const params = { amount: 300, currency: 'usd', destination: account.id };
    // The SDK retries a closed connection once even without retries: two drops outlast it.
    const error = await caught(stripe.transfers.create(params, { idempotencyKey: 'drop-1' }));
    expect(error).toBeInstanceOf(Stripe.errors.StripeConnectionError);
    // The work was done once, and kept for the key.
    const made = await transfersTo(account.id);
    expect(made).toHaveLength(1);
    const again = await stripe.transfers.create(params, { idempotencyKey: 'drop-1' });
    expect(again.id).toBe(made[0]?.id);
    expect(again.lastResponse.headers['idempotent-replayed']).toBe('true');
    expect(await transfersTo(account.id)).toHaveLength(1);
    expect((await stripe.balance.retrieve({}, { stripeAccount: account.id })).available[0]?.amount).toBe(300);
  });

  it('holds the answer past the client’s timeout; the work is done once and the retry replays it', async () => {
    const account = await onboarded();
    await fundPlatform(1000);
    faults.inject({ method: 'POST', path: '/v1/transfers', fault: { kind: 'delay', ms: 2_000 } });
    const transfer = await retrying(150).transfers.create(
      { amount: 200, currency: 'usd', destination: account.id },
      { idempotencyKey: 'slow-1' },
    );
    expect(transfer.lastResponse.headers['idempotent-replayed']).toBe('true');
    expect(faults.faulted).toEqual([
      { method: 'POST', path: '/v1/transfers', idempotencyKey: 'slow-1', fault: 'delay' },
    ]);
    expect((await transfersTo(account.id)).map((item) => item.id)).toEqual([transfer.id]);
  });

  it('matches a path by pattern, and a rule for payouts leaves transfers alone', async () => {
    faults.inject({ method: 'GET', path: /^\/v1\/accounts\/acct_\w+$/, fault: { kind: 'status', status: 500 } });
    faults.inject({ method: 'POST', path: '/v1/payouts', fault: { kind: 'status', status: 429 } });
    const account = await stripe.accounts.create(customAccount);
    const error = await caught(stripe.accounts.retrieve(account.id));
    expect(error).toBeInstanceOf(Stripe.errors.StripeAPIError);
    expect(error.statusCode).toBe(500);
    expect((await stripe.accounts.retrieve(account.id)).id).toBe(account.id);
    expect(faults.pending()).toBe(1);
    faults.clear();
    expect(faults.pending()).toBe(0);
  });
});

describe('conformance to Stripe’s OpenAPI document', () => {
  it('served every answer in the documented shape and took only documented parameters', () => {
    const openApi = loadStripeOpenApi();
    expect(openApi.version).toBe('2024-04-10');
    const calls = new Set(
      exchanges.map((exchange) => `${exchange.method} ${exchange.path.replace(/\/(acct|tr|po|pi|evt)_\w+/g, '/{id}')}`),
    );
    // Every call the emulator serves was exercised above.
    expect([...calls].sort()).toEqual(
      expect.arrayContaining([
        'GET /v1/accounts',
        'GET /v1/accounts/{id}',
        'GET /v1/accounts/{id}/external_accounts',
        'GET /v1/balance',
        'GET /v1/account',
        'GET /v1/events',
        'GET /v1/events/{id}',
        'GET /v1/payment_intents/{id}',
        'GET /v1/payouts',
        'GET /v1/payouts/{id}',
        'GET /v1/transfers',
        'GET /v1/transfers/{id}',
        'POST /v1/accounts',
        'POST /v1/accounts/{id}',
        'POST /v1/accounts/{id}/external_accounts',
        'POST /v1/payment_intents',
        'POST /v1/payment_intents/{id}/confirm',
        'POST /v1/payment_methods',
        'POST /v1/payouts',
        'POST /v1/tokens',
        'POST /v1/transfers',
        'GET /v1/webhook_endpoints',
        'POST /v1/webhook_endpoints',
      ]),
    );
    const problems = openApiProblems(openApi, exchanges);
    expect(problems).toEqual([]);
    // What the emulator refused as unknown, the document does not list either; its answer is still Stripe's error.
    const refused = exchanges.filter(refusedAsUnknown);
    expect(refused.length).toBeGreaterThan(0);
    for (const exchange of refused) {
      const found = openApi.check(exchange);
      expect(found.length).toBeGreaterThan(0);
      expect(found.every((problem) => problem.startsWith('request'))).toBe(true);
    }
    // Checking some hundreds of exchanges against the 2024-04-10 document is CPU-bound (about 3 s
    // alone): the unit project's parallel files can stretch it well past the default 5 s.
  }, 60_000);
});
