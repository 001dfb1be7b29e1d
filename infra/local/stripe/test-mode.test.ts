import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  FAIL_AFTER_PAID_METADATA,
  startStripeEmulator,
  type Exchange,
  type StripeEmulator,
  type StripeEmulatorOptions,
} from './index';
import { loadStripeOpenApi } from './openapi';
import { STRIPE_TEST_MODE_RETRY_DELAYS_MS } from './webhooks';
import {
  InstantPayoutsControl,
  StripeFaults,
  TEST_CARDS,
  completeIndividual,
  customAccount,
  sdk,
  webhookReceiver,
  caught,
} from './testing';

/**
 * The emulator behaves as Stripe's test mode does, each behaviour from Stripe's documentation:
 * idempotency, the two webhook endpoints, identity checks that take time, payout schedules,
 * pending funds, unreachable accounts, the test cards. Each describe block has its own emulator
 * (moving one's clock moves everything due in it).
 */

// Several emulators and the OpenAPI document's compilation on a shared machine: room beyond vitest's 5 s.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const dirs: string[] = [];
const running: StripeEmulator[] = [];
/** Every exchange of every emulator here, checked against Stripe's OpenAPI document at the end. */
const exchanges: Exchange[] = [];

async function start(options: Partial<StripeEmulatorOptions> = {}): Promise<StripeEmulator> {
  const dir = mkdtempSync(join(tmpdir(), 'stripe-test-mode-'));
  dirs.push(dir);
  const emulator = await startStripeEmulator({
    dataDir: join(dir, 'data'),
    log: () => undefined,
    onExchange: (exchange) => void exchanges.push(exchange),
    ...options,
  });
  running.push(emulator);
  return emulator;
}

afterAll(async () => {
  for (const emulator of running) await emulator.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Waits (without a deadline of its own) until the condition holds: the test's timeout bounds it. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

const individual = (overrides: Partial<typeof completeIndividual.individual> = {}) => ({
  ...completeIndividual,
  individual: { ...completeIndividual.individual, ...overrides },
});

async function debitCard(stripe: Stripe, number = '4000056655665556'): Promise<string> {
  const token = await stripe.tokens.create({
    card: { number, exp_month: '12', exp_year: '2034', cvc: '123', currency: 'usd' },
  });
  return token.id;
}

/** An account verified at once (Stripe's 1902-01-01) with a debit card. */
async function onboarded(stripe: Stripe, settings?: Stripe.AccountCreateParams['settings']): Promise<Stripe.Account> {
  const account = await stripe.accounts.create({ ...customAccount, ...(settings ? { settings } : {}) });
  await stripe.accounts.update(account.id, completeIndividual);
  await stripe.accounts.createExternalAccount(account.id, { external_account: await debitCard(stripe) });
  return stripe.accounts.retrieve(account.id);
}

const pay = (stripe: Stripe, amount: number, method = 'pm_card_visa') =>
  stripe.paymentIntents.create({ amount, currency: 'usd', payment_method: method, confirm: true });

const usd = (entries: Stripe.Balance.Available[] | Stripe.Balance.Pending[]) =>
  entries.find((entry) => entry.currency === 'usd')?.amount ?? 0;

describe('idempotency as Stripe keeps it', () => {
  let emulator: StripeEmulator;
  let stripe: Stripe;
  const faults = new StripeFaults();
  beforeAll(async () => {
    emulator = await start({ faults });
    stripe = sdk(emulator.port, emulator.secretKey);
  });

  it('keeps an error of a call that ran (balance_insufficient) and replays it, even once the funds are there', async () => {
    const account = await onboarded(stripe);
    const params = { amount: 700, currency: 'usd', destination: account.id };
    const first = await caught(stripe.transfers.create(params, { idempotencyKey: 'transfer-short' }));
    expect(first.code).toBe('balance_insufficient');
    await pay(stripe, 2000, 'pm_card_bypassPending');
    const again = await caught(stripe.transfers.create(params, { idempotencyKey: 'transfer-short' }));
    expect(again.code).toBe('balance_insufficient');
    expect(again.headers?.['idempotent-replayed']).toBe('true');
    expect((await stripe.transfers.list({ destination: account.id })).data).toHaveLength(0);
    // A new key runs the call.
    expect((await stripe.transfers.create(params, { idempotencyKey: 'transfer-new' })).amount).toBe(700);
  });

  it('keeps a card decline for its key', async () => {
    const params = { amount: 900, currency: 'usd', payment_method: 'pm_card_chargeDeclined', confirm: true };
    const first = await caught(stripe.paymentIntents.create(params, { idempotencyKey: 'declined-once' }));
    const again = await caught(stripe.paymentIntents.create(params, { idempotencyKey: 'declined-once' }));
    expect(again.code).toBe('card_declined');
    expect(again.headers?.['idempotent-replayed']).toBe('true');
    // The saved answer: the first request's own error, with its request log.
    expect((again.raw as { request_log_url?: string }).request_log_url).toBe(
      (first.raw as { request_log_url?: string }).request_log_url,
    );
  });

  it('keeps nothing for a request whose parameters failed validation', async () => {
    const account = await onboarded(stripe);
    const refused = await caught(
      stripe.transfers.create(
        { amount: 0, currency: 'usd', destination: account.id },
        {
          idempotencyKey: 'fixed-later',
        },
      ),
    );
    expect(refused.statusCode).toBe(400);
    await pay(stripe, 1000, 'pm_card_bypassPending');
    const fixed = await stripe.transfers.create(
      { amount: 100, currency: 'usd', destination: account.id },
      { idempotencyKey: 'fixed-later' },
    );
    expect(fixed.amount).toBe(100);
  });

  it('answers 409 to a second request while the first with its key is in flight; the SDK’s retry replays one object', async () => {
    const account = await onboarded(stripe);
    await pay(stripe, 5000, 'pm_card_bypassPending');
    faults.inject({ method: 'POST', path: '/v1/transfers', fault: { kind: 'slow', ms: 400 } });
    const retrying = sdk(emulator.port, emulator.secretKey, 3);
    const params = { amount: 300, currency: 'usd', destination: account.id, metadata: { order: 'concurrent' } };
    const before = exchanges.length;
    const [one, two] = await Promise.all([
      retrying.transfers.create(params, { idempotencyKey: 'two-at-once' }),
      new Promise((resolve) => setTimeout(resolve, 50)).then(() =>
        retrying.transfers.create(params, { idempotencyKey: 'two-at-once' }),
      ),
    ]);
    expect(one.id).toBe(two.id);
    const conflicts = exchanges.slice(before).filter((exchange) => exchange.status === 409);
    expect(conflicts.length).toBeGreaterThan(0);
    expect((conflicts[0]?.body as { error: { type: string } }).error.type).toBe('idempotency_error');
    const made = (await stripe.transfers.list({ destination: account.id, limit: 100 })).data.filter(
      (transfer) => transfer.metadata.order === 'concurrent',
    );
    expect(made).toHaveLength(1);
  });

  it('forgets a key after 24 hours on the emulator clock', async () => {
    const account = await onboarded(stripe);
    await stripe.accounts.update(account.id, { metadata: { note: 'first' } }, { idempotencyKey: 'day-old' });
    const other = await caught(
      stripe.accounts.update(account.id, { metadata: { note: 'second' } }, { idempotencyKey: 'day-old' }),
    );
    expect(other.type).toBe('StripeIdempotencyError');
    await emulator.clock.advance(DAY + 1000);
    const later = await stripe.accounts.update(
      account.id,
      { metadata: { note: 'second' } },
      { idempotencyKey: 'day-old' },
    );
    expect(later.metadata?.note).toBe('second');
  });

  it('keeps no hash of the request from which a tax ID could be found', async () => {
    const body = (idNumber: string) => individual({ id_number: idNumber } as never);
    const account = await stripe.accounts.create(customAccount);
    await stripe.accounts.update(account.id, body('000000000'), { idempotencyKey: 'tax-id-a' });
    // Another ID number with the same key is still told apart while the emulator runs.
    const other = await caught(stripe.accounts.update(account.id, body('123456789'), { idempotencyKey: 'tax-id-a' }));
    expect(other.type).toBe('StripeIdempotencyError');
    await stripe.accounts.update(account.id, body('123456789'), { idempotencyKey: 'tax-id-b' });
    await emulator.stop();
    const state = JSON.parse(readFileSync(join(dirs[0]!, 'data', 'state.json'), 'utf8')) as {
      idempotency: Record<string, { fingerprint: string; keyedFingerprint: string }>;
    };
    const a = Object.entries(state.idempotency).find(([slot]) => slot.endsWith(' tax-id-a'))?.[1];
    const b = Object.entries(state.idempotency).find(([slot]) => slot.endsWith(' tax-id-b'))?.[1];
    // The stored plain fingerprint is the same whatever the ID number: it holds nothing of it.
    expect(a?.fingerprint).toBe(b?.fingerprint);
    expect(a?.keyedFingerprint).not.toBe(b?.keyedFingerprint);
    expect(JSON.stringify(state)).not.toMatch(/123456789|000000000/);
  });
});

describe('webhooks as Stripe sends them', () => {
  const ACCOUNT_SECRET = 'whsec_platform_endpoint';
  const CONNECT_SECRET = 'whsec_connect_endpoint';
  let emulator: StripeEmulator;
  let stripe: Stripe;
  let platformEndpoint: Awaited<ReturnType<typeof webhookReceiver>>;
  let connectEndpoint: Awaited<ReturnType<typeof webhookReceiver>>;
  beforeAll(async () => {
    platformEndpoint = await webhookReceiver();
    connectEndpoint = await webhookReceiver({ failFirst: 1 });
    emulator = await start({
      webhooks: {
        account: { url: platformEndpoint.url, secret: ACCOUNT_SECRET },
        connect: { url: () => connectEndpoint.url, secret: CONNECT_SECRET },
      },
    });
    stripe = sdk(emulator.port, emulator.secretKey);
  });
  afterAll(async () => {
    await platformEndpoint.stop();
    await connectEndpoint.stop();
  });

  it('sends account.updated for a new account to the Connect endpoint, retried on Stripe’s schedule as the clock moves', async () => {
    const account = await stripe.accounts.create(customAccount);
    await until(() => connectEndpoint.attempts() >= 1);
    expect(connectEndpoint.deliveries).toHaveLength(0);
    // Stripe's first retry in test mode comes an hour later.
    expect(STRIPE_TEST_MODE_RETRY_DELAYS_MS[0]).toBe(HOUR);
    await emulator.clock.advance(HOUR);
    const delivery = await connectEndpoint.next('account.updated');
    const event = stripe.webhooks.constructEvent(delivery.payload, delivery.signature, CONNECT_SECRET);
    expect(event.account).toBe(account.id);
    expect(event.api_version).toBe(Stripe.API_VERSION);
    expect(() => stripe.webhooks.constructEvent(delivery.payload, delivery.signature, ACCOUNT_SECRET)).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
  });

  it('sends the platform’s own events to the account endpoint, signed with its secret, and none of the connected accounts’', async () => {
    const intent = await pay(stripe, 1500);
    await emulator.idle();
    const events = platformEndpoint.deliveries.map((delivery) =>
      stripe.webhooks.constructEvent(delivery.payload, delivery.signature, ACCOUNT_SECRET),
    );
    const types = events.map((event) => event.type);
    expect(types).toContain('payment_intent.succeeded');
    expect(types).toContain('charge.succeeded');
    expect(events.every((event) => event.account === undefined)).toBe(true);
    expect(events.every((event) => event.api_version === Stripe.API_VERSION)).toBe(true);
    const succeeded = events.find((event) => event.type === 'payment_intent.succeeded');
    expect((succeeded?.data.object as Stripe.PaymentIntent).id).toBe(intent.id);
    const connectTypes = connectEndpoint.deliveries.map(
      (delivery) => (JSON.parse(delivery.payload) as Stripe.Event).type,
    );
    expect(connectTypes).not.toContain('payment_intent.succeeded');
  });

  // docs.stripe.com/webhooks ("Retry behavior": test mode retries three times over a few hours;
  // "Event ordering": Stripe doesn't guarantee delivery in the order the events were generated).
  it('retries a refused event on its own schedule while the endpoint’s later events are delivered', async () => {
    let refusing = true;
    const receiver = await webhookReceiver({
      refuse: (type) => refusing && type === 'account.external_account.created',
    });
    const own = await start({ webhooks: { connect: { url: receiver.url, secret: CONNECT_SECRET } } });
    const client = sdk(own.port, own.secretKey);
    const account = await client.accounts.create(customAccount);
    await client.accounts.createExternalAccount(account.id, { external_account: 'tok_visa_debit_us_transferSuccess' });
    await client.accounts.update(account.id, { metadata: { later: 'yes' } });
    // The refused event waits for its retry; the events after it are not held back behind it.
    await until(
      () =>
        receiver.deliveries.filter(
          (delivery) => (JSON.parse(delivery.payload) as Stripe.Event).type === 'account.updated',
        ).length >= 3,
    );
    expect(receiver.attemptsOf('account.external_account.created')).toBe(1);
    expect(receiver.deliveries.map((delivery) => (JSON.parse(delivery.payload) as Stripe.Event).type)).not.toContain(
      'account.external_account.created',
    );
    // Not before its first retry is due (an hour later in test mode), then delivered.
    await own.clock.advance(HOUR - 60_000);
    expect(receiver.attemptsOf('account.external_account.created')).toBe(1);
    refusing = false;
    await own.clock.advance(60_000);
    const delivery = await receiver.next('account.external_account.created');
    expect(stripe.webhooks.constructEvent(delivery.payload, delivery.signature, CONNECT_SECRET).account).toBe(
      account.id,
    );
    expect(receiver.attemptsOf('account.external_account.created')).toBe(2);
    await own.idle();
    await receiver.stop();
  });

  it('delivers the events of one moment out of order when asked (deliveryOrder: shuffled)', async () => {
    const receiver = await webhookReceiver();
    const shuffled = await start({
      webhooks: { connect: { url: receiver.url, secret: CONNECT_SECRET } },
      deliveryOrder: 'shuffled',
      webhookRetryDelaysMs: [],
    });
    const client = sdk(shuffled.port, shuffled.secretKey);
    const account = await client.accounts.create(customAccount);
    await shuffled.idle();
    const before = receiver.deliveries.length;
    await client.accounts.createExternalAccount(account.id, { external_account: await debitCard(client) });
    await shuffled.idle();
    const delivered = receiver.deliveries
      .slice(before)
      .map((delivery) => (JSON.parse(delivery.payload) as Stripe.Event).id);
    const happened = (await client.events.list({ limit: 2 }, { stripeAccount: account.id })).data
      .map((event) => event.id)
      .reverse();
    expect([...delivered].sort()).toEqual([...happened].sort());
    expect(delivered).not.toEqual(happened);
    await receiver.stop();
  });
});

describe('verification takes time', () => {
  let emulator: StripeEmulator;
  let stripe: Stripe;
  beforeAll(async () => {
    emulator = await start({ verificationDelayMs: 5_000 });
    stripe = sdk(emulator.port, emulator.secretKey);
  });

  it('keeps transfers pending while Stripe verifies 1901-01-01, then active, announced by account.updated', async () => {
    const account = await stripe.accounts.create(customAccount);
    const checking = await stripe.accounts.update(account.id, individual({ dob: { day: 1, month: 1, year: 1901 } }));
    expect(checking.capabilities?.transfers).toBe('pending');
    expect(checking.requirements?.pending_verification).toEqual(
      expect.arrayContaining(['individual.dob.day', 'individual.ssn_last_4', 'individual.first_name']),
    );
    expect(checking.requirements?.currently_due).toEqual(['external_account']);
    await emulator.clock.advance(5_000);
    const verified = await stripe.accounts.retrieve(account.id);
    expect(verified.capabilities?.transfers).toBe('active');
    expect(verified.requirements?.pending_verification).toEqual([]);
    const [latest] = (await stripe.events.list({ type: 'account.updated', limit: 1 }, { stripeAccount: account.id }))
      .data;
    expect((latest?.data.object as Stripe.Account).capabilities?.transfers).toBe('active');
    expect(latest?.data.previous_attributes).toMatchObject({ capabilities: { transfers: 'pending' } });
  });

  it('verifies ID number 222222222 at once', async () => {
    const account = await stripe.accounts.create(customAccount);
    const { ssn_last_4: _ssn, ...rest } = completeIndividual.individual;
    const updated = await stripe.accounts.update(account.id, {
      ...completeIndividual,
      individual: { ...rest, dob: { day: 1, month: 1, year: 1901 }, id_number: '222222222' },
    });
    expect(updated.capabilities?.transfers).toBe('active');
    expect(updated.individual?.id_number_provided).toBe(true);
  });

  it.each([
    [
      'ID number 111111111',
      { id_number: '111111111', dob: { day: 1, month: 1, year: 1901 } },
      'verification_failed_keyed_identity',
      'individual.verification.document',
    ],
    [
      'date of birth 1990-01-15 (any date but the test ones)',
      { dob: { day: 15, month: 1, year: 1990 } },
      'verification_failed_keyed_identity',
      'individual.verification.document',
    ],
    [
      'date of birth 1900-01-01 (OFAC alert)',
      { dob: { day: 1, month: 1, year: 1900 } },
      'verification_failed_other',
      'individual.verification.document',
    ],
    [
      'address address_no_match',
      {
        dob: { day: 1, month: 1, year: 1901 },
        address: { ...completeIndividual.individual.address, line1: 'address_no_match' },
      },
      'verification_failed_address_match',
      'individual.address.line1',
    ],
  ])('refuses %s with requirements.errors after the check', async (_, overrides, code, requirement) => {
    const account = await stripe.accounts.create(customAccount);
    const checking = await stripe.accounts.update(account.id, individual(overrides as never));
    expect(checking.capabilities?.transfers).toBe('pending');
    await emulator.clock.advance(5_000);
    const refused = await stripe.accounts.retrieve(account.id);
    expect(refused.capabilities?.transfers).toBe('inactive');
    expect(refused.requirements?.errors).toEqual([expect.objectContaining({ code, requirement })]);
    expect(refused.requirements?.errors?.[0]?.reason).toMatch(/./);
    expect(refused.requirements?.currently_due).toContain(requirement);
  });

  it('asks a US individual for business_profile.mcc until the MCC or a product description is given', async () => {
    const account = await stripe.accounts.create(customAccount);
    const { mcc: _mcc, ...profile } = completeIndividual.business_profile;
    const without = await stripe.accounts.update(account.id, { ...completeIndividual, business_profile: profile });
    expect(without.requirements?.currently_due).toContain('business_profile.mcc');
    expect(without.capabilities?.transfers).toBe('inactive');
    const described = await stripe.accounts.update(account.id, {
      business_profile: { product_description: 'Handmade soap sold at markets' },
    });
    expect(described.requirements?.currently_due).not.toContain('business_profile.mcc');
  });
});

describe('payout schedule', () => {
  let emulator: StripeEmulator;
  let stripe: Stripe;
  beforeAll(async () => {
    emulator = await start();
    stripe = sdk(emulator.port, emulator.secretKey);
  });

  it('gives a new account Stripe’s US default (daily, 2 days), honours manual on create and update with account.updated', async () => {
    const daily = await stripe.accounts.create(customAccount);
    expect(daily.settings?.payouts?.schedule).toMatchObject({ interval: 'daily', delay_days: 2 });
    const manual = await stripe.accounts.create({
      ...customAccount,
      settings: { payouts: { schedule: { interval: 'manual' } } },
    });
    expect(manual.settings?.payouts?.schedule.interval).toBe('manual');
    const updated = await stripe.accounts.update(daily.id, {
      settings: { payouts: { schedule: { interval: 'manual' } } },
    });
    expect(updated.settings?.payouts?.schedule.interval).toBe('manual');
    const [latest] = (await stripe.events.list({ type: 'account.updated', limit: 1 }, { stripeAccount: daily.id }))
      .data;
    expect(latest?.data.previous_attributes).toMatchObject({
      settings: { payouts: { schedule: { interval: 'daily' } } },
    });
  });

  it('pays out a daily account’s available balance by itself when the clock passes its payout time; a manual one keeps it', async () => {
    const daily = await onboarded(stripe);
    const manual = await onboarded(stripe, { payouts: { schedule: { interval: 'manual' } } });
    await pay(stripe, 5000, 'pm_card_bypassPending');
    await stripe.transfers.create({ amount: 1500, currency: 'usd', destination: daily.id });
    await stripe.transfers.create({ amount: 1500, currency: 'usd', destination: manual.id });
    await emulator.clock.advance(DAY);
    await emulator.idle();
    const [automatic] = (await stripe.payouts.list({}, { stripeAccount: daily.id })).data;
    expect(automatic).toMatchObject({ amount: 1500, automatic: true, metadata: {}, method: 'standard' });
    expect(usd((await stripe.balance.retrieve({}, { stripeAccount: daily.id })).available)).toBe(0);
    expect((await stripe.payouts.list({}, { stripeAccount: manual.id })).data).toHaveLength(0);
    expect(usd((await stripe.balance.retrieve({}, { stripeAccount: manual.id })).available)).toBe(1500);
  });
});

describe('pending and available funds, fees and the clock', () => {
  let emulator: StripeEmulator;
  let stripe: Stripe;
  beforeAll(async () => {
    // A platform that keeps its balance: what becomes available stays to be read.
    emulator = await start({ platformPayouts: 'manual' });
    stripe = sdk(emulator.port, emulator.secretKey);
  });

  it('makes a charge and a balance transaction with Stripe’s card fee, pending until available_on', async () => {
    const intent = await pay(stripe, 10_000);
    expect(intent.latest_charge).toMatch(/^ch_/);
    const charge = await stripe.charges.retrieve(String(intent.latest_charge));
    expect(charge).toMatchObject({ amount: 10_000, paid: true, status: 'succeeded', payment_intent: intent.id });
    const transaction = await stripe.balanceTransactions.retrieve(String(charge.balance_transaction));
    // 2.9 % + 30¢ of $100.00 is $3.20.
    expect(transaction).toMatchObject({
      type: 'charge',
      amount: 10_000,
      fee: 320,
      net: 9_680,
      status: 'pending',
      source: charge.id,
    });
    const day = 86_400;
    expect(transaction.available_on).toBe((Math.floor(transaction.created / day) + 2) * day);
    const listed = await stripe.balanceTransactions.list({ limit: 100 });
    expect(listed.data.map((entry) => entry.id)).toContain(transaction.id);
    const before = await stripe.balance.retrieve();
    expect(usd(before.available)).toBe(0);
    expect(usd(before.pending)).toBe(9_680);
    await emulator.clock.advance(transaction.available_on * 1000 - emulator.clock.now() + 1000);
    expect((await stripe.balanceTransactions.retrieve(transaction.id)).status).toBe('available');
    expect(usd((await stripe.balance.retrieve()).available)).toBe(9_680);
    const announced = await stripe.events.list({ type: 'balance.available', limit: 1 });
    expect(announced.data).toHaveLength(1);
  });

  it('lands the available-balance card in available at once (pm_card_bypassPending, tok_bypassPending, 4000000000000077)', async () => {
    const before = usd((await stripe.balance.retrieve()).available);
    await pay(stripe, 1000, 'pm_card_bypassPending');
    const method = await stripe.paymentMethods.create({ type: 'card', card: { token: 'tok_bypassPending' } });
    await pay(stripe, 1000, method.id);
    const token = await stripe.tokens.create({
      card: { number: '4000000000000077', exp_month: '1', exp_year: '2035', cvc: '1' },
    });
    const fromNumber = await stripe.paymentMethods.create({ type: 'card', card: { token: token.id } });
    await pay(stripe, 1000, fromNumber.id);
    // Each $10.00 less 2.9 % + 30¢ (59¢).
    expect(usd((await stripe.balance.retrieve()).available)).toBe(before + 3 * 941);
  });

  it('refuses a transfer of pending funds without source_transaction, and allows it from the charge, pending at the destination', async () => {
    const account = await onboarded(stripe);
    const available = usd((await stripe.balance.retrieve()).available);
    const intent = await pay(stripe, 20_000);
    const short = await caught(
      stripe.transfers.create({ amount: available + 1000, currency: 'usd', destination: account.id }),
    );
    expect(short.code).toBe('balance_insufficient');
    expect(short.message).toMatch(/^You have insufficient available funds in your Stripe account/);
    const tooMuch = await caught(
      stripe.transfers.create({
        amount: 20_001,
        currency: 'usd',
        destination: account.id,
        source_transaction: String(intent.latest_charge),
      }),
    );
    expect(tooMuch.statusCode).toBe(400);
    const transfer = await stripe.transfers.create({
      amount: 15_000,
      currency: 'usd',
      destination: account.id,
      source_transaction: String(intent.latest_charge),
    });
    expect(transfer.source_transaction).toBe(intent.latest_charge);
    const balance = await stripe.balance.retrieve({}, { stripeAccount: account.id });
    expect(usd(balance.pending)).toBe(15_000);
    expect(usd(balance.available)).toBe(0);
    const early = await caught(
      stripe.payouts.create({ amount: 15_000, currency: 'usd' }, { stripeAccount: account.id }),
    );
    expect(early.code).toBe('balance_insufficient');
    await emulator.clock.advance(3 * DAY);
    await emulator.idle();
    // The daily schedule paid it out when the funds became available.
    const paid = (await stripe.payouts.list({}, { stripeAccount: account.id })).data;
    expect(paid.map((payout) => [payout.amount, payout.automatic])).toEqual([[15_000, true]]);
  });
});

describe('every test card and token', () => {
  let emulator: StripeEmulator;
  let stripe: Stripe;
  beforeAll(async () => {
    emulator = await start();
    stripe = sdk(emulator.port, emulator.secretKey);
  });

  const declining = TEST_CARDS.filter((card) => card.outcome.kind === 'declined');
  it.each(declining.map((card) => [card.paymentMethod ?? card.number, card] as const))(
    'declines %s with its code and decline_code',
    async (_, card) => {
      const outcome = card.outcome as Extract<typeof card.outcome, { kind: 'declined' }>;
      const token = await stripe.tokens.create({
        card: { number: card.number, exp_month: '1', exp_year: '2035', cvc: '1' },
      });
      const method = await stripe.paymentMethods.create({ type: 'card', card: { token: token.id } });
      for (const id of [method.id, card.paymentMethod].filter((value): value is string => Boolean(value))) {
        const error = await caught(pay(stripe, 1000, id));
        expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
        expect(error.code).toBe(outcome.code);
        expect(error.decline_code).toBe(outcome.declineCode);
      }
    },
  );

  it('accepts every succeeding card by number, pm_card_… and tok_…', async () => {
    for (const card of TEST_CARDS.filter((candidate) => candidate.outcome.kind !== 'declined')) {
      const token = await stripe.tokens.create({
        card: { number: card.number, exp_month: '1', exp_year: '2035', cvc: '1' },
      });
      expect(token.card?.brand).toBe(card.brand);
      const methods = [(await stripe.paymentMethods.create({ type: 'card', card: { token: token.id } })).id];
      if (card.paymentMethod) methods.push(card.paymentMethod);
      if (card.token)
        methods.push((await stripe.paymentMethods.create({ type: 'card', card: { token: card.token } })).id);
      for (const id of methods) expect((await pay(stripe, 1000, id)).status).toBe('succeeded');
    }
  });

  it('opens a dispute after a dispute card’s payment succeeds (charge.dispute.created)', async () => {
    const intent = await pay(stripe, 2500, 'pm_card_createDispute');
    expect(intent.status).toBe('succeeded');
    await emulator.idle();
    const [event] = (await stripe.events.list({ type: 'charge.dispute.created', limit: 1 })).data;
    expect(event?.data.object).toMatchObject({
      object: 'dispute',
      charge: intent.latest_charge,
      reason: 'fraudulent',
      amount: 2500,
    });
    expect((await stripe.charges.retrieve(String(intent.latest_charge))).disputed).toBe(true);
  });

  it('closes a dispute won with winning_evidence (amount and fee back) and lost with losing_evidence (charge.dispute.closed)', async () => {
    const disputeOf = async (intent: Stripe.PaymentIntent) => {
      await emulator.idle();
      const [dispute] = (await stripe.disputes.list({ payment_intent: intent.id })).data;
      expect(dispute?.status).toBe('needs_response');
      return dispute!;
    };
    const winning = await disputeOf(await pay(stripe, 3000, 'pm_card_createDispute'));
    const before = usd((await stripe.balance.retrieve()).available);
    const submitted = await stripe.disputes.update(winning.id, {
      evidence: { uncategorized_text: 'winning_evidence' },
    });
    expect(submitted.status).toBe('under_review');
    await emulator.idle();
    expect((await stripe.disputes.retrieve(winning.id)).status).toBe('won');
    // The $30.00 and the $15.00 dispute fee come back.
    expect(usd((await stripe.balance.retrieve()).available) - before).toBe(3000 + 1500);

    const losing = await disputeOf(await pay(stripe, 2000, 'pm_card_createDispute'));
    await stripe.disputes.update(losing.id, { evidence: { uncategorized_text: 'losing_evidence' } });
    await emulator.idle();
    expect((await stripe.disputes.retrieve(losing.id)).status).toBe('lost');
    const closed = (await stripe.events.list({ type: 'charge.dispute.closed', limit: 10 })).data.map(
      (event) => event.data.object as Stripe.Dispute,
    );
    expect(closed.map((dispute) => [dispute.id, dispute.status])).toEqual([
      [losing.id, 'lost'],
      [winning.id, 'won'],
    ]);
    // A closed dispute takes no more evidence; accepting one (close) loses it at once.
    expect(
      (await caught(stripe.disputes.update(losing.id, { evidence: { uncategorized_text: 'x' } }))).message,
    ).toContain('already closed');
    const accepted = await disputeOf(await pay(stripe, 1000, 'pm_card_createDispute'));
    expect((await stripe.disputes.close(accepted.id)).status).toBe('lost');
  });

  it('refuses to refund a charged-back payment (charge_disputed) while its dispute is open or lost, and refunds it once won or for an inquiry (docs.stripe.com/api/disputes/object, is_charge_refundable; docs.stripe.com/error-codes, charge_disputed)', async () => {
    // Available funds to refund from (a refund the available balance does not cover is held pending).
    await pay(stripe, 100_000, 'pm_card_bypassPending');
    const disputeOf = async (intent: Stripe.PaymentIntent) => {
      await emulator.idle();
      return (await stripe.disputes.list({ payment_intent: intent.id })).data[0]!;
    };
    const open = await disputeOf(await pay(stripe, 2000, 'pm_card_createDispute'));
    expect(open).toMatchObject({ status: 'needs_response', is_charge_refundable: false });
    const refused = await caught(stripe.refunds.create({ payment_intent: String(open.payment_intent), amount: 500 }));
    expect([refused.statusCode, refused.code]).toEqual([400, 'charge_disputed']);
    expect(refused.message).toContain('charged back');

    await stripe.disputes.close(open.id);
    expect((await stripe.disputes.retrieve(open.id)).is_charge_refundable).toBe(false);
    const afterLoss = await caught(stripe.refunds.create({ payment_intent: String(open.payment_intent) }));
    expect(afterLoss.code).toBe('charge_disputed');
    expect((await stripe.refunds.list({ payment_intent: String(open.payment_intent) })).data).toEqual([]);

    const won = await disputeOf(await pay(stripe, 1500, 'pm_card_createDispute'));
    await stripe.disputes.update(won.id, { evidence: { uncategorized_text: 'winning_evidence' } });
    await emulator.idle();
    expect(await stripe.disputes.retrieve(won.id)).toMatchObject({ status: 'won', is_charge_refundable: true });
    expect((await stripe.refunds.create({ payment_intent: String(won.payment_intent) })).amount).toBe(1500);

    const inquiry = await disputeOf(await pay(stripe, 1200, 'pm_card_createDisputeInquiry'));
    expect(inquiry).toMatchObject({ status: 'warning_needs_response', is_charge_refundable: true });
    expect((await stripe.refunds.create({ payment_intent: String(inquiry.payment_intent) })).status).toBe('succeeded');
  });

  it('takes 4000056755665555 as a debit card for standard payouts only, and lists instant only where Stripe says', async () => {
    const account = await stripe.accounts.create(customAccount);
    await stripe.accounts.update(account.id, completeIndividual);
    const standardOnly = (await stripe.accounts.createExternalAccount(account.id, {
      external_account: await debitCard(stripe, '4000056755665555'),
    })) as Stripe.Card;
    expect(standardOnly.available_payout_methods).toEqual(['standard']);
    const instant = (await stripe.accounts.createExternalAccount(account.id, {
      external_account: await debitCard(stripe, '5200828282828210'),
    })) as Stripe.Card;
    expect(instant.available_payout_methods).toEqual(['standard', 'instant']);
    // The dispute cards' payments above took their amounts and fees from the available balance.
    const owed = -Math.min(0, usd((await stripe.balance.retrieve()).available));
    await pay(stripe, owed + 10_000, 'pm_card_bypassPending');
    await stripe.transfers.create({ amount: 2000, currency: 'usd', destination: account.id });
    const refused = await caught(
      stripe.payouts.create(
        { amount: 500, currency: 'usd', method: 'instant', destination: standardOnly.id },
        { stripeAccount: account.id },
      ),
    );
    expect(refused.code).toBe('instant_payouts_unsupported');
    const credit = await caught(
      stripe.accounts.createExternalAccount(account.id, {
        external_account: await debitCard(stripe, '4242424242424242'),
      }),
    );
    expect(credit.message).toBe("This card doesn't appear to be a debit card.");
  });
});

describe('payouts as Stripe pays them', () => {
  const control = new InstantPayoutsControl({ dailyLimitCents: 1_500_000 });
  let emulator: StripeEmulator;
  let stripe: Stripe;
  beforeAll(async () => {
    emulator = await start({ instantPayouts: control, platformPayouts: 'manual' });
    stripe = sdk(emulator.port, emulator.secretKey);
    await pay(stripe, 5_000_000, 'pm_card_bypassPending');
  });

  /** A verified account on a manual schedule (nothing paid out by itself) with this external account and funds. */
  async function funded(externalAccount: string, cents: number): Promise<Stripe.Account> {
    const account = await stripe.accounts.create({
      ...customAccount,
      settings: { payouts: { schedule: { interval: 'manual' } } },
    });
    await stripe.accounts.update(account.id, completeIndividual);
    await stripe.accounts.createExternalAccount(account.id, { external_account: externalAccount });
    await stripe.transfers.create({ amount: cents, currency: 'usd', destination: account.id });
    return account;
  }

  // docs.stripe.com/api/payouts/object (status): "A payout is pending until it's submitted to the
  // bank, when it becomes in_transit. The status changes to paid if the transaction succeeds";
  // arrival_date: "Date that you can expect the payout to arrive in the bank".
  it('keeps a standard payout in_transit until its arrival_date, then pays it (payout.paid then)', async () => {
    const account = await funded('tok_visa_debit_us_transferSuccess', 2500);
    const payout = await stripe.payouts.create({ amount: 2500, currency: 'usd' }, { stripeAccount: account.id });
    expect(payout).toMatchObject({ status: 'pending', method: 'standard' });
    expect(payout.arrival_date).toBeGreaterThan(payout.created);
    await emulator.idle();
    const read = () => stripe.payouts.retrieve(payout.id, {}, { stripeAccount: account.id });
    const paidEvents = async () =>
      (await stripe.events.list({ type: 'payout.paid' }, { stripeAccount: account.id })).data.length;
    expect((await read()).status).toBe('in_transit');
    await emulator.clock.advance(payout.arrival_date * 1000 - emulator.clock.now() - 1000);
    expect((await read()).status).toBe('in_transit');
    expect(await paidEvents()).toBe(0);
    await emulator.clock.advance(1000);
    expect((await read()).status).toBe('paid');
    const [paid] = (await stripe.events.list({ type: 'payout.paid' }, { stripeAccount: account.id })).data;
    expect(paid?.account).toBe(account.id);
    expect((paid?.data.object as Stripe.Payout).id).toBe(payout.id);
  });

  // docs.stripe.com/api/payouts/object (status): "Some payouts that fail might initially show as
  // paid, then change to failed."
  it('fails a payout after it was paid when a test asks (payout.paid, then payout.failed, the amount back)', async () => {
    const account = await funded('tok_visa_debit_us_transferSuccess', 1800);
    const payout = await stripe.payouts.create(
      { amount: 1800, currency: 'usd', metadata: { [FAIL_AFTER_PAID_METADATA.key]: FAIL_AFTER_PAID_METADATA.value } },
      { stripeAccount: account.id },
    );
    await emulator.idle();
    expect((await stripe.payouts.retrieve(payout.id, {}, { stripeAccount: account.id })).status).toBe('in_transit');
    await emulator.clock.advance(Math.max(0, payout.arrival_date * 1000 - emulator.clock.now()));
    const events = (await stripe.events.list({}, { stripeAccount: account.id })).data
      .filter((event) => event.type.startsWith('payout.'))
      .map((event) => [event.type, (event.data.object as Stripe.Payout).status]);
    expect(events).toEqual([
      ['payout.failed', 'failed'],
      ['payout.paid', 'paid'],
      ['payout.created', 'pending'],
    ]);
    expect((await stripe.balance.retrieve({}, { stripeAccount: account.id })).available[0]?.amount).toBe(1800);
  });

  // docs.stripe.com/api/payouts/object (status): "Some payouts that fail might initially show as
  // paid, then change to failed"; the failure codes of docs.stripe.com/api/payouts/failures.
  it('fails a paid payout the bank returns when a test says so, days after payout.paid', async () => {
    const account = await funded('tok_visa_debit_us_transferSuccess', 1300);
    const payout = await stripe.payouts.create({ amount: 1300, currency: 'usd' }, { stripeAccount: account.id });
    await emulator.idle();
    expect(() => emulator.returnPayout(account.id, payout.id)).toThrow(`No paid payout ${payout.id}`);
    await emulator.clock.advance(Math.max(0, payout.arrival_date * 1000 - emulator.clock.now()));
    expect((await stripe.payouts.retrieve(payout.id, {}, { stripeAccount: account.id })).status).toBe('paid');
    expect((await stripe.balance.retrieve({}, { stripeAccount: account.id })).available[0]?.amount).toBe(0);
    await emulator.clock.advance(3 * 86_400_000);
    emulator.returnPayout(account.id, payout.id, 'account_closed');
    expect(await stripe.payouts.retrieve(payout.id, {}, { stripeAccount: account.id })).toMatchObject({
      status: 'failed',
      failure_code: 'account_closed',
      failure_message: 'The bank account has been closed.',
    });
    const events = (await stripe.events.list({}, { stripeAccount: account.id })).data
      .filter((event) => event.type.startsWith('payout.'))
      .map((event) => event.type);
    expect(events).toEqual(['payout.failed', 'payout.paid', 'payout.created']);
    expect((await stripe.balance.retrieve({}, { stripeAccount: account.id })).available[0]?.amount).toBe(1300);
  });

  // docs.stripe.com/connect/testing ("Payouts", debit card numbers, United States).
  it('takes Connect testing’s payout tokens, each behaving as the page says', async () => {
    for (const token of [
      'tok_visa_debit_us_transferSuccess',
      'tok_mastercard_debit_us_transferSuccess',
      'tok_discover_debit_us_transferSuccess',
    ]) {
      const account = await funded(token, 1000);
      const card = (await stripe.accounts.listExternalAccounts(account.id)).data[0] as Stripe.Card;
      expect(card.available_payout_methods).toEqual(['standard', 'instant']);
      const payout = await stripe.payouts.create(
        { amount: 1000, currency: 'usd', method: 'instant' },
        { stripeAccount: account.id },
      );
      await emulator.idle();
      expect((await stripe.payouts.retrieve(payout.id, {}, { stripeAccount: account.id })).status).toBe('paid');
    }
    // "Payout fails with a could_not_process code."
    const failing = await funded('tok_visa_debit_us_transferFail', 700);
    const failed = await stripe.payouts.create({ amount: 700, currency: 'usd' }, { stripeAccount: failing.id });
    await emulator.idle();
    expect(await stripe.payouts.retrieve(failed.id, {}, { stripeAccount: failing.id })).toMatchObject({
      status: 'failed',
      failure_code: 'could_not_process',
    });
    expect((await stripe.balance.retrieve({}, { stripeAccount: failing.id })).available[0]?.amount).toBe(700);
    // "Card isn't eligible for Instant Payouts."
    const standardOnly = await funded('tok_visa_debit_us_instantPayoutUnsupported', 600);
    const card = (await stripe.accounts.listExternalAccounts(standardOnly.id)).data[0] as Stripe.Card;
    expect([card.last4, card.available_payout_methods]).toEqual(['5555', ['standard']]);
    const refused = await caught(
      stripe.payouts.create({ amount: 600, currency: 'usd', method: 'instant' }, { stripeAccount: standardOnly.id }),
    );
    expect(refused.code).toBe('instant_payouts_unsupported');
  });

  // docs.stripe.com/connect/instant-payouts ("Pricing": US minimum 0.50 USD, maximum 9,999 USD per
  // Instant Payout; "Eligibility and daily volume limits"); codes from docs.stripe.com/error-codes.
  it('refuses an instant payout under $0.50 or over $9,999, on an ineligible platform, or past the daily volume', async () => {
    const account = await funded('tok_visa_debit_us_transferSuccess', 1_700_000);
    const instant = (amount: number) =>
      stripe.payouts.create({ amount, currency: 'usd', method: 'instant' }, { stripeAccount: account.id });
    const platformFees = async () =>
      (await stripe.balanceTransactions.list({ type: 'stripe_fee', limit: 100 })).data.length;
    const feesBefore = await platformFees();
    expect((await caught(instant(49))).code).toBe('amount_too_small');
    const over = await caught(instant(999_901));
    expect([over.code, over.param]).toEqual(['amount_too_large', 'amount']);
    expect(over.message).toContain('greater than the maximum amount allowed');
    // The bounds are the payout's, not a fee floor: 50¢ goes, and costs the platform 1 % (1¢).
    expect((await instant(50)).method).toBe('instant');
    expect((await instant(999_900)).amount).toBe(999_900);
    expect(await platformFees()).toBe(feesBefore + 2);
    // A standard payout has no such bounds.
    expect((await stripe.payouts.create({ amount: 40, currency: 'usd' }, { stripeAccount: account.id })).method).toBe(
      'standard',
    );

    control.eligible = false;
    const disabled = await caught(instant(1000));
    expect([disabled.code, disabled.message]).toEqual([
      'instant_payouts_config_disabled',
      'This connected account is not eligible for Instant Payouts. Ask the platform to enable Instant Payouts.',
    ]);
    control.eligible = true;
    // $10,029.50 went out instantly today (here and the tokens' $30 above); the daily volume here is $15,000.
    expect((await instant(490_000)).amount).toBe(490_000);
    const limited = await caught(instant(10_000));
    expect([limited.code, limited.message]).toEqual([
      'instant_payouts_limit_exceeded',
      'You have reached your daily processing limits for Instant Payouts.',
    ]);
    // Nothing was taken for the refused ones.
    expect((await stripe.balance.retrieve({}, { stripeAccount: account.id })).available[0]?.amount).toBe(
      1_700_000 - 50 - 999_900 - 40 - 490_000,
    );
  });
});

describe('refunds and transfer reversals', () => {
  let emulator: StripeEmulator;
  let stripe: Stripe;
  beforeAll(async () => {
    emulator = await start();
    stripe = sdk(emulator.port, emulator.secretKey);
  });

  it('refunds part of a charge, then the rest by payment intent, and refuses more (charge.refunded)', async () => {
    const intent = await pay(stripe, 4000, 'pm_card_bypassPending');
    const before = usd((await stripe.balance.retrieve()).available);
    const part = await stripe.refunds.create({ charge: String(intent.latest_charge), amount: 1500 });
    expect(part).toMatchObject({ object: 'refund', amount: 1500, status: 'succeeded', charge: intent.latest_charge });
    expect(usd((await stripe.balance.retrieve()).available)).toBe(before - 1500);
    const rest = await stripe.refunds.create({ payment_intent: intent.id });
    expect(rest.amount).toBe(2500);
    const charge = await stripe.charges.retrieve(String(intent.latest_charge));
    expect(charge).toMatchObject({ amount_refunded: 4000, refunded: true });
    const again = await caught(stripe.refunds.create({ charge: charge.id, amount: 100 }));
    expect(again.code).toBe('charge_already_refunded');
    const refunded = await stripe.events.list({ type: 'charge.refunded', limit: 2 });
    expect(refunded.data.map((event) => (event.data.object as Stripe.Charge).amount_refunded)).toEqual([4000, 1500]);
    expect((await stripe.refunds.list({ charge: charge.id })).data).toHaveLength(2);
  });

  it('fails the refund of the refund-failure card later and gives the amount back', async () => {
    // Enough available balance that the refund goes out at once (the previous test left it negative).
    await pay(stripe, 10_000, 'pm_card_bypassPending');
    const intent = await pay(stripe, 2000, 'pm_card_refundFail');
    const refund = await stripe.refunds.create({ payment_intent: intent.id });
    expect(refund.status).toBe('succeeded');
    await emulator.idle();
    expect((await stripe.refunds.retrieve(refund.id)).status).toBe('failed');
    expect((await stripe.charges.retrieve(String(intent.latest_charge))).amount_refunded).toBe(0);
    expect((await stripe.events.list({ type: 'refund.failed', limit: 1 })).data).toHaveLength(1);
  });

  it('reverses part of a transfer from the connected account’s balance, and refuses more than is left', async () => {
    const account = await onboarded(stripe, { payouts: { schedule: { interval: 'manual' } } });
    await pay(stripe, 5000, 'pm_card_bypassPending');
    const transfer = await stripe.transfers.create({ amount: 3000, currency: 'usd', destination: account.id });
    const reversal = await stripe.transfers.createReversal(transfer.id, { amount: 1000 });
    expect(reversal).toMatchObject({ object: 'transfer_reversal', amount: 1000, transfer: transfer.id });
    expect(usd((await stripe.balance.retrieve({}, { stripeAccount: account.id })).available)).toBe(2000);
    expect((await stripe.transfers.retrieve(transfer.id)).amount_reversed).toBe(1000);
    const tooMuch = await caught(stripe.transfers.createReversal(transfer.id, { amount: 2001 }));
    expect(tooMuch.statusCode).toBe(400);
    expect((await stripe.transfers.listReversals(transfer.id)).data.map((one) => one.id)).toEqual([reversal.id]);
    expect((await stripe.events.list({ type: 'transfer.reversed', limit: 1 })).data).toHaveLength(1);
  });
});

describe("the platform's own balance: its payout schedule and refunds it cannot cover", () => {
  // docs.stripe.com/payouts ("Payout schedule": daily automatic payouts are the default);
  // docs.stripe.com/api/accounts/object (settings.payouts.schedule); docs.stripe.com/connect/separate-charges-and-transfers
  // ("source_transaction": the transfer succeeds regardless of the available balance).
  it('pays the available balance out at 00:00 UTC by default, so only a transfer naming its charge goes after it', async () => {
    const emulator = await start();
    const stripe = sdk(emulator.port, emulator.secretKey);
    expect((await stripe.accounts.retrieveCurrent()).settings?.payouts?.schedule).toMatchObject({ interval: 'daily' });
    const account = await onboarded(stripe, { payouts: { schedule: { interval: 'manual' } } });
    await pay(stripe, 5000, 'pm_card_bypassPending');
    expect(usd((await stripe.balance.retrieve()).available)).toBe(4825);
    const nextDay = (Math.floor(emulator.clock.now() / DAY) + 1) * DAY;
    await emulator.clock.advance(nextDay - emulator.clock.now() + 1000);
    expect(usd((await stripe.balance.retrieve()).available)).toBe(0);
    const payouts = await stripe.payouts.list();
    expect(payouts.data[0]).toMatchObject({ amount: 4825, automatic: true, status: 'pending', type: 'bank_account' });
    const unfunded = await caught(stripe.transfers.create({ amount: 100, currency: 'usd', destination: account.id }));
    expect(unfunded.code).toBe('balance_insufficient');
    const pending = await pay(stripe, 3000);
    const funded = await stripe.transfers.create({
      amount: 1000,
      currency: 'usd',
      destination: account.id,
      source_transaction: String(pending.latest_charge),
      transfer_group: 'group-1',
    });
    expect(funded).toMatchObject({ source_transaction: pending.latest_charge, transfer_group: 'group-1' });
    await emulator.clock.advance(DAY);
    expect((await stripe.payouts.retrieve(payouts.data[0]!.id)).status).toBe('paid');
  });

  it('keeps the available balance on a manual schedule (the platform account says so)', async () => {
    const emulator = await start({ platformPayouts: 'manual' });
    const stripe = sdk(emulator.port, emulator.secretKey);
    expect((await stripe.accounts.retrieveCurrent()).settings?.payouts?.schedule).toMatchObject({ interval: 'manual' });
    await pay(stripe, 5000, 'pm_card_bypassPending');
    await emulator.clock.advance(3 * DAY);
    expect(usd((await stripe.balance.retrieve()).available)).toBe(4825);
    expect((await stripe.payouts.list()).data).toHaveLength(0);
  });

  // support.stripe.com/questions/pending-refunds-due-to-insufficient-funds-or-stripe-balance;
  // docs.stripe.com/changelog/basil/2025-04-30/refund-pending-reason; support.stripe.com/questions/fix-your-pending-refund (45 days).
  it('holds a refund the available balance cannot cover pending (insufficient_funds) until a payment covers it', async () => {
    const emulator = await start({ platformPayouts: 'manual' });
    const stripe = sdk(emulator.port, emulator.secretKey);
    const intent = await pay(stripe, 4000);
    const refund = await stripe.refunds.create({ payment_intent: intent.id, amount: 1000 });
    expect(refund).toMatchObject({ status: 'pending', pending_reason: 'insufficient_funds' });
    expect(usd((await stripe.balance.retrieve()).available)).toBe(-1000);
    expect((await stripe.charges.retrieve(String(intent.latest_charge))).amount_refunded).toBe(1000);
    await pay(stripe, 2000, 'pm_card_bypassPending');
    await emulator.clock.advance(1000);
    const after = await stripe.refunds.retrieve(refund.id);
    expect(after.status).toBe('succeeded');
    expect(after.pending_reason).toBeUndefined();
    const updated = await stripe.events.list({ type: 'refund.updated', limit: 1 });
    expect((updated.data[0]?.data.object as Stripe.Refund).id).toBe(refund.id);
    expect((await stripe.events.list({ type: 'charge.refund.updated', limit: 1 })).data).toHaveLength(1);
  });

  it('fails a refund left pending 45 days and gives its amount back (refund.failed)', async () => {
    const emulator = await start({ platformPayouts: 'manual' });
    const stripe = sdk(emulator.port, emulator.secretKey);
    const intent = await pay(stripe, 4000);
    const refund = await stripe.refunds.create({ payment_intent: intent.id });
    expect(refund.status).toBe('pending');
    await emulator.clock.advance(44 * DAY);
    // The charge's own funds (less Stripe's fee) became available, but the refund took more: still negative.
    expect(usd((await stripe.balance.retrieve()).available)).toBe(-146);
    expect((await stripe.refunds.retrieve(refund.id)).status).toBe('pending');
    await emulator.clock.advance(2 * DAY);
    expect(await stripe.refunds.retrieve(refund.id)).toMatchObject({
      status: 'failed',
      failure_reason: 'insufficient_funds',
    });
    expect(usd((await stripe.balance.retrieve()).available)).toBe(3854);
    expect((await stripe.charges.retrieve(String(intent.latest_charge))).amount_refunded).toBe(0);
    const failed = await stripe.events.list({ type: 'refund.failed', limit: 1 });
    expect((failed.data[0]?.data.object as Stripe.Refund).id).toBe(refund.id);
  });
});

describe('lists bounded by created, paged as Stripe pages them', () => {
  it('lists charges, refunds, transfers and a connected account’s payouts in a created range, newest first, through the SDK’s auto-pagination', async () => {
    const emulator = await start();
    const stripe = sdk(emulator.port, emulator.secretKey);
    const account = await onboarded(stripe, { payouts: { schedule: { interval: 'manual' } } });
    const before = await pay(stripe, 1000, 'pm_card_bypassPending');
    await stripe.refunds.create({ payment_intent: before.id, amount: 100 });
    const earlyTransfer = await stripe.transfers.create({ amount: 100, currency: 'usd', destination: account.id });
    await stripe.payouts.create({ amount: 50, currency: 'usd' }, { stripeAccount: account.id });
    await emulator.clock.advance(2 * DAY);
    const from = Math.floor(emulator.clock.now() / 1000);
    const inside = [];
    for (const cents of [2000, 2100, 2200]) inside.push(await pay(stripe, cents, 'pm_card_bypassPending'));
    const refund = await stripe.refunds.create({ payment_intent: inside[0]!.id, amount: 300 });
    const transfer = await stripe.transfers.create({ amount: 400, currency: 'usd', destination: account.id });
    const payout = await stripe.payouts.create({ amount: 30, currency: 'usd' }, { stripeAccount: account.id });
    const to = Math.floor(emulator.clock.now() / 1000);
    await emulator.clock.advance(2 * DAY);
    await pay(stripe, 3000, 'pm_card_bypassPending');

    const created = { gte: from, lte: to };
    const charges = [];
    // limit 2: three charges in the range take two pages (starting_after the second).
    for await (const charge of stripe.charges.list({ created, limit: 2 })) charges.push(charge.amount);
    expect(charges).toEqual([2200, 2100, 2000]);
    const refunds = await stripe.refunds.list({ created }).autoPagingToArray({ limit: 100 });
    expect(refunds.map((one) => one.id)).toEqual([refund.id]);
    const transfers = await stripe.transfers.list({ created }).autoPagingToArray({ limit: 100 });
    expect(transfers.map((one) => one.id)).toEqual([transfer.id]);
    expect(transfers.map((one) => one.id)).not.toContain(earlyTransfer.id);
    const payouts = await stripe.payouts
      .list({ created }, { stripeAccount: account.id })
      .autoPagingToArray({ limit: 100 });
    expect(payouts.map((one) => one.id)).toEqual([payout.id]);
    expect((await stripe.charges.list({ created: from - 1 })).data).toEqual([]);
    // A bad `created` is Stripe's 400 naming it (params.test.ts: not sent here, the OpenAPI check takes only documented requests).
  });
});

describe('the platform’s own key', () => {
  it('makes a key for a start without one and accepts only it; a given key is kept across restarts', async () => {
    const made = await start();
    expect(made.secretKey).toMatch(/^sk_test_[0-9a-f]{48}$/);
    expect((await sdk(made.port, made.secretKey).balance.retrieve()).object).toBe('balance');
    const other = await start();
    expect(other.secretKey).not.toBe(made.secretKey);
    const error = await caught(sdk(other.port, made.secretKey).balance.retrieve());
    expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect(error.message).toMatch(/^Invalid API Key provided: sk_test_\*+/);
    await expect(start({ secretKey: 'sk_live_not_a_test_key' })).rejects.toThrow(/test-mode secret key/);
  });

  it('answers the key of a previous start on the same data folder api_key_expired, as Stripe answers a rolled key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stripe-rolled-'));
    dirs.push(dir);
    const dataDir = join(dir, 'data');
    const first = await start({ dataDir, secretKey: 'sk_test_before_the_roll_0001' });
    const account = await sdk(first.port, first.secretKey).accounts.create(customAccount);
    await first.stop();
    running.splice(running.indexOf(first), 1);
    // The same key again: still the platform's.
    const again = await start({ dataDir, secretKey: 'sk_test_before_the_roll_0001' });
    expect((await sdk(again.port, 'sk_test_before_the_roll_0001').accounts.retrieve(account.id)).id).toBe(account.id);
    await again.stop();
    running.splice(running.indexOf(again), 1);
    const rolled = await start({ dataDir, secretKey: 'sk_test_after_the_roll_0002' });
    const error = await caught(sdk(rolled.port, 'sk_test_before_the_roll_0001').accounts.retrieve(account.id));
    expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect(error.statusCode).toBe(401);
    expect(error.code).toBe('api_key_expired');
    expect(error.rawType).toBe('invalid_request_error');
    expect(error.message).toBe('Expired API Key provided: sk_test_****************0001');
    expect((await sdk(rolled.port, 'sk_test_after_the_roll_0002').accounts.retrieve(account.id)).id).toBe(account.id);
    // The state remembers digests of the keys, never a key.
    const state = readFileSync(join(dataDir, 'state.json'), 'utf8');
    expect(state).not.toContain('before_the_roll');
    expect(state).not.toContain('after_the_roll');
  });
});

describe('an account the key cannot reach', () => {
  it('answers 403 for another platform’s account, on the account calls and with Stripe-Account', async () => {
    const emulator = await start({
      secretKey: 'sk_test_this_platform',
      otherPlatformKeys: ['sk_test_another_platform'],
    });
    const ours = sdk(emulator.port, 'sk_test_this_platform');
    const theirs = sdk(emulator.port, 'sk_test_another_platform');
    const account = await ours.accounts.create(customAccount);
    const expected = `The provided key 'sk_test_************form' does not have access to account '${account.id}' (or that account does not exist). Application access may have been revoked.`;
    for (const call of [
      theirs.accounts.retrieve(account.id),
      theirs.accounts.update(account.id, { metadata: { a: 'b' } }),
      theirs.accounts.listExternalAccounts(account.id),
      theirs.balance.retrieve({}, { stripeAccount: account.id }),
      theirs.payouts.list({}, { stripeAccount: account.id }),
    ]) {
      const error = await caught(call);
      expect(error).toBeInstanceOf(Stripe.errors.StripePermissionError);
      expect(error.statusCode).toBe(403);
      expect(error.message).toBe(expected);
    }
    expect((await theirs.accounts.list()).data.map((one) => one.id)).not.toContain(account.id);
    expect((await ours.accounts.retrieve(account.id)).id).toBe(account.id);
  });
});

describe('conformance of these exchanges to Stripe’s OpenAPI document', () => {
  it('served every answer in the documented shape and took only documented parameters', () => {
    const openApi = loadStripeOpenApi();
    const problems = exchanges.flatMap((exchange) =>
      openApi.check(exchange).map((problem) => `${exchange.method} ${exchange.path} ${exchange.status}: ${problem}`),
    );
    expect(exchanges.length).toBeGreaterThan(50);
    expect(problems).toEqual([]);
  }, 60_000);
});
