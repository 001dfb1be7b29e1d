import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signature } from '../../../../infra/local/stripe';
import { startStripeEmulator, type StripeEmulator } from '../../../../infra/local/stripe';
import { sdk } from '../../../../infra/local/stripe/testing';
import { DomainError } from '../../errors';
import {
  InstantRefused,
  MoneyRefusal,
  type NewPayoutAccount,
  type PaymentGateway,
} from '../../payments/payment-gateway';
import Stripe from 'stripe';
import { connectionOptions, createStripeGateway, toDomainError, toMoneyError } from './stripe-gateway';

/** The Stripe adapter through the real SDK against the local emulator. */
let emulator: StripeEmulator;
let dataDir: string;
let gateway: PaymentGateway;
const KEY = 'sk_test_gateway';
const WEBHOOK_SECRET = 'whsec_gateway';
const CONNECT_SECRET = 'whsec_gateway_connect';

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'stripe-gateway-'));
  emulator = await startStripeEmulator({ dataDir, secretKey: KEY, log: () => undefined });
  gateway = createStripeGateway({
    secretKey: async () => KEY,
    webhookSecret: async () => WEBHOOK_SECRET,
    connectWebhookSecret: async () => CONNECT_SECRET,
    apiUrl: () => emulator.url,
  });
});
afterAll(async () => {
  await emulator?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

let counter = 0;
const member = (overrides: Partial<NewPayoutAccount> = {}): NewPayoutAccount => ({
  userId: `user-${Date.now()}-${counter++}`,
  email: 'jenny@example.com',
  firstName: 'Jenny',
  lastName: 'Rosen',
  phone: '+12025550123',
  address: { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701' },
  // Stripe's test values that verify at once.
  dob: { day: 1, month: 1, year: 1902 },
  taxId: '222222222',
  profileUrl: 'https://social.example.com/jenny',
  tosAcceptance: { date: new Date('2026-01-02T03:04:05Z'), ip: '203.0.113.7' },
  ...overrides,
});

const card = async (number: string) =>
  (
    await sdk(emulator.port, KEY).tokens.create({
      card: { number, exp_month: '12', exp_year: '2034', cvc: '123', currency: 'usd' },
    })
  ).id;

const refusal = async (work: Promise<unknown>): Promise<DomainError> => {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
};

describe('when Stripe does not answer', () => {
  it('is a 503 in words (unavailable) after the retries, for every call; an authentication error stays a 500', () => {
    const raw = { message: 'boom', type: 'api_error' as const };
    for (const error of [
      new Stripe.errors.StripeConnectionError({
        ...raw,
        message: 'Request aborted due to timeout being reached (300ms)',
      }),
      new Stripe.errors.StripeAPIError(raw),
      new Stripe.errors.StripeRateLimitError({ ...raw, type: 'invalid_request_error', code: 'rate_limit' }),
    ]) {
      const mapped = [toDomainError(error), toMoneyError(error, 'transfer'), toMoneyError(error, 'payout')];
      expect(mapped.map((domain) => [(domain as DomainError).kind, (domain as DomainError).message])).toEqual([
        ['unavailable', 'Stripe did not answer. Nothing was done twice; try again in a minute.'],
        ['unavailable', 'Stripe did not answer. Nothing was sent twice; try again in a minute.'],
        ['unavailable', 'Stripe did not answer. Nothing was paid out twice; try again in a minute.'],
      ]);
    }
    const auth = new Stripe.errors.StripeAuthenticationError({ ...raw, type: 'invalid_request_error' });
    expect(toDomainError(auth)).toBe(auth);
    expect(toMoneyError(auth, 'transfer')).toBe(auth);
  });
});

describe("Stripe's 403 for a connected account", () => {
  it('is an account that is gone: a 404 asking the member to set up payouts again, a 409 telling the admin', () => {
    const forbidden = new Stripe.errors.StripePermissionError({
      message: 'The provided key does not have access to account acct_1 (or that account does not exist).',
      type: 'invalid_request_error',
      statusCode: 403,
    });
    const member = toDomainError(forbidden) as DomainError;
    expect([member.kind, member.message]).toEqual([
      'not-found',
      'Your payout account can no longer be reached at Stripe (it was closed or disconnected). Set up payouts again to be paid.',
    ]);
    for (const step of ['transfer', 'payout'] as const) {
      const admin = toMoneyError(forbidden, step) as DomainError;
      expect(admin).toBeInstanceOf(MoneyRefusal);
      expect([admin.kind, admin.message]).toEqual([
        'conflict',
        "The member's payout account can no longer be reached at Stripe (it was closed or disconnected): ask the member to set up payouts again.",
      ]);
    }
  });
});

describe('connectionOptions', () => {
  it('points the SDK at STRIPE_API_URL, or at Stripe itself when it is unset', () => {
    expect(connectionOptions('http://127.0.0.1:4567')).toEqual({ host: '127.0.0.1', port: 4567, protocol: 'http' });
    expect(connectionOptions('https://stripe.internal')).toEqual({
      host: 'stripe.internal',
      port: 443,
      protocol: 'https',
    });
    expect(connectionOptions(undefined)).toEqual({});
  });
});

describe('createConnectedAccount', () => {
  it('creates a US individual with the transfers capability, ToS and profile URL, active once a card is added', async () => {
    const details = member();
    const status = await gateway.createConnectedAccount(details);
    const account = await sdk(emulator.port, KEY).accounts.retrieve(status.id);
    expect(account).toMatchObject({
      country: 'US',
      business_type: 'individual',
      business_profile: { url: 'https://social.example.com/jenny', mcc: '5399' },
      settings: { payouts: { schedule: { interval: 'manual' } } },
      tos_acceptance: { date: Date.parse('2026-01-02T03:04:05Z') / 1000, ip: '203.0.113.7' },
      metadata: { userId: details.userId },
      controller: { requirement_collection: 'application', stripe_dashboard: { type: 'none' } },
      individual: { first_name: 'Jenny', last_name: 'Rosen', id_number_provided: true },
    });
    expect(status.transfers).toBe('active');
    expect(status.requirementsDue).toEqual(['external_account']);
    expect(status.payoutsEnabled).toBe(false);
  });

  it('creates one account for one user, however often it is asked (same idempotency key)', async () => {
    const details = member();
    const [first, second] = await Promise.all([
      gateway.createConnectedAccount(details),
      gateway.createConnectedAccount(details),
    ]);
    const third = await gateway.createConnectedAccount(details);
    expect(second.id).toBe(first.id);
    expect(third.id).toBe(first.id);
    const all = await sdk(emulator.port, KEY).accounts.list({ limit: 100 });
    expect(all.data.filter((account) => account.metadata?.userId === details.userId)).toHaveLength(1);
  });

  it('answers a second request with other details for the same user as a conflict, not a second account', async () => {
    const details = member();
    await gateway.createConnectedAccount(details);
    const error = await refusal(gateway.createConnectedAccount({ ...details, firstName: 'Jane' }));
    expect(error.kind).toBe('conflict');
    const all = await sdk(emulator.port, KEY).accounts.list({ limit: 100 });
    expect(all.data.filter((account) => account.metadata?.userId === details.userId)).toHaveLength(1);
  });
});

describe('addDebitCard and listCards', () => {
  it('refuses a credit card in plain words at the card field, and adds nothing', async () => {
    const { id } = await gateway.createConnectedAccount(member());
    const error = await refusal(gateway.addDebitCard(id, await card('4242424242424242'), 'someone'));
    expect(error.kind).toBe('bad-request');
    expect(error.message).toBe("This card doesn't appear to be a debit card.");
    expect(error.fields).toEqual({ token: "This card doesn't appear to be a debit card." });
    expect(await gateway.listCards(id)).toEqual([]);
  });

  it("maps Stripe's refusals to the form field they concern, in Stripe's words when they are plain", async () => {
    // Stripe makes a token of any test card; the decline comes when the card is used.
    const declined = toDomainError(
      new Stripe.errors.StripeCardError({
        message: 'Your card was declined.',
        type: 'card_error',
        code: 'card_declined',
      }),
    );
    expect(declined).toBeInstanceOf(DomainError);
    expect((declined as DomainError).fields).toEqual({ token: 'Your card was declined.' });
    const badSsn = await sdk(emulator.port, KEY)
      .accounts.create({ type: 'custom', country: 'US', individual: { ssn_last_4: '12' } })
      .catch((caught: unknown) => toDomainError(caught));
    expect(badSsn).toBeInstanceOf(DomainError);
    expect((badSsn as DomainError).fields).toEqual({
      tax_id: 'Stripe did not accept this tax ID. Check the nine digits.',
    });
    const badDob = await sdk(emulator.port, KEY)
      .accounts.create({
        type: 'custom',
        country: 'US',
        individual: { dob: { day: 'x' as unknown as number, month: 1, year: 1990 } },
      })
      .catch((caught: unknown) => toDomainError(caught));
    expect((badDob as DomainError).fields).toEqual({ dob_day: 'Stripe did not accept this date of birth.' });
    const other = new Error('socket hang up');
    expect(toDomainError(other)).toBe(other);
  });

  it('adds a debit card and lists it as the apps show it', async () => {
    const { id } = await gateway.createConnectedAccount(member());
    const added = await gateway.addDebitCard(id, await card('4000056655665556'), 'someone');
    expect(added).toMatchObject({ brand: 'Visa', exp_month: 12, exp_year: 2034, last4: '5556' });
    expect(Object.keys(added).sort()).toEqual(['brand', 'exp_month', 'exp_year', 'id', 'last4']);
    expect(await gateway.listCards(id)).toEqual([added]);
    const account = await sdk(emulator.port, KEY).accounts.retrieve(id);
    expect(account.payouts_enabled).toBe(true);
  });

  it('answers an unknown account as not found', async () => {
    const error = await refusal(gateway.listCards('acct_unknown0000000'));
    expect(error.kind).toBe('not-found');
  });
});

describe('verifyEvent', () => {
  const event = (id: string) =>
    JSON.stringify({
      id,
      object: 'event',
      type: 'account.updated',
      created: 1_700_000_000,
      data: {
        object: {
          id: 'acct_123',
          object: 'account',
          payouts_enabled: true,
          capabilities: { transfers: 'active' },
          requirements: { currently_due: [] },
        },
      },
    });
  const now = () => Math.floor(Date.now() / 1000);

  it('accepts a body signed with the secret and reads account.updated', async () => {
    const body = event('evt_1');
    expect(await gateway.verifyEvent(body, signature(body, CONNECT_SECRET, now()), 'connect')).toEqual({
      id: 'evt_1',
      kind: 'account.updated',
      account: {
        id: 'acct_123',
        asOf: 1_700_000_000,
        requirementsDue: [],
        transfers: 'active',
        payoutsEnabled: true,
        pendingVerification: [],
        errors: [],
        payoutInterval: null,
      },
      userId: undefined,
    });
  });

  it("refuses another secret (the other endpoint's too), a changed body, and a signature more than 300 seconds old or ahead", async () => {
    const body = event('evt_2');
    for (const header of [
      signature(body, 'whsec_other', now()),
      signature(body, WEBHOOK_SECRET, now()),
      signature(event('evt_3'), CONNECT_SECRET, now()),
      signature(body, CONNECT_SECRET, now() - 301),
      signature(body, CONNECT_SECRET, now() + 310),
      'nonsense',
    ]) {
      const error = await refusal(gateway.verifyEvent(body, header, 'connect'));
      expect(error.kind).toBe('bad-request');
    }
    expect((await gateway.verifyEvent(body, signature(body, CONNECT_SECRET, now() - 290), 'connect')).id).toBe('evt_2');
    expect((await gateway.verifyEvent(body, signature(body, CONNECT_SECRET, now() + 60), 'connect')).id).toBe('evt_2');
    expect((await gateway.verifyEvent(body, signature(body, WEBHOOK_SECRET, now()), 'platform')).id).toBe('evt_2');
  });

  it('refuses a validly signed event whose data is not what its type says, in words', async () => {
    for (const body of [
      JSON.stringify({ type: 'payout.failed' }),
      JSON.stringify({ id: 'evt_m1', object: 'event', type: 'payout.failed', created: 1, data: {} }),
      JSON.stringify({
        id: 'evt_m2',
        object: 'event',
        type: 'account.updated',
        created: 1,
        data: { object: { id: 'acct_1', object: 'account', requirements: { currently_due: 'all' } } },
      }),
      JSON.stringify({
        id: 'evt_m3',
        object: 'event',
        type: 'payment_intent.succeeded',
        created: 1,
        data: { object: { id: 'pi_1', object: 'payment_intent', status: 'succeeded', amount: '12' } },
      }),
    ]) {
      const error = await refusal(gateway.verifyEvent(body, signature(body, CONNECT_SECRET, now()), 'connect'));
      expect(error.kind).toBe('bad-request');
      expect(error.message).toMatch(/^The event is malformed: .* is not what Stripe sends\.$/);
    }
  });
});

describe('createTransfer, findTransfer and createPayout', () => {
  const stripe = () => sdk(emulator.port, KEY);

  /** A payable account: transfers active, a debit card. */
  async function payable(): Promise<string> {
    const account = await gateway.createConnectedAccount(member());
    await gateway.addDebitCard(account.id, await card('4000056655665556'), `payable-${counter++}`);
    return account.id;
  }

  it('transfers once per key, finds the transfer by its metadata, and pays out standard unless asked for instant', async () => {
    const accountId = await payable();
    await stripe().paymentIntents.create({
      amount: 5000,
      currency: 'usd',
      // Lands in the available balance at once (a card payment's funds are pending for days).
      payment_method: 'pm_card_bypassPending',
      confirm: true,
    });
    const request = {
      amountCents: 1200,
      destinationAccountId: accountId,
      idempotencyKey: `portal:transfer:c-${accountId}:0`,
      metadata: { commissionId: `c-${accountId}` },
    };
    const first = await gateway.createTransfer(request);
    expect(await gateway.createTransfer(request)).toEqual(first);
    expect(first.amountCents).toBe(1200);
    expect(await gateway.findTransfer(accountId, 'commissionId', `c-${accountId}`)).toEqual({ id: first.id });
    expect(await gateway.findTransfer(accountId, 'commissionId', 'another')).toBeUndefined();

    // Stripe bills the platform 1 % of an instant payout (decision 0270): instant only when asked,
    // the whole balance going out (the fee is not the member's balance's).
    const payout = await gateway.createPayout({
      accountId,
      amountCents: 1100,
      method: 'instant',
      idempotencyKey: `portal:payout:c-${accountId}:0`,
      metadata: { commissionId: `c-${accountId}`, attempt: '0' },
    });
    expect(payout).toMatchObject({ status: 'pending', method: 'instant' });
    // Under Stripe's $0.50 instant minimum: refused as instant, in words, so the caller can go standard.
    const tooSmall = await gateway
      .createPayout({
        accountId,
        amountCents: 30,
        method: 'instant',
        idempotencyKey: `portal:payout:c-${accountId}:1`,
        metadata: { commissionId: `c-${accountId}`, attempt: '1' },
      })
      .catch((error: unknown) => error);
    expect(tooSmall).toBeInstanceOf(InstantRefused);
    expect((tooSmall as InstantRefused).message).toBe(
      'Instant payouts are not available (an instant payout is $0.50 to $9,999.00).',
    );
    const rest = await gateway.createPayout({
      accountId,
      amountCents: 100,
      idempotencyKey: `portal:payout:c-${accountId}:2`,
      metadata: { commissionId: `c-${accountId}`, attempt: '2' },
    });
    expect(rest).toMatchObject({ status: 'pending', method: 'standard' });
    const listed = await stripe().payouts.list({}, { stripeAccount: accountId });
    expect(listed.data.map((item) => item.id).sort()).toEqual([payout.id, rest.id].sort());
  });

  it('says in words what stands in the way: a low balance, no card', async () => {
    const accountId = await payable();
    const tooMuch = await refusal(
      gateway.createTransfer({
        amountCents: 999_999_999,
        destinationAccountId: accountId,
        idempotencyKey: `too-much-${accountId}`,
        metadata: {},
      }),
    );
    expect([tooMuch.kind, tooMuch.message]).toEqual([
      'conflict',
      // This emulator's platform keeps Stripe's default schedule (daily): no date to promise, what to set instead.
      "The platform's available balance is too low to send this commission, and Stripe pays it out automatically (daily), so it will not build up: orders entered by hand are paid from a balance the platform keeps. Set the platform's payouts to manual in Stripe's Dashboard (Settings → Payouts), add funds to its balance, then try again.",
    ]);
    const empty = await refusal(
      gateway.createPayout({ accountId, amountCents: 100, idempotencyKey: `empty-${accountId}`, metadata: {} }),
    );
    expect([empty.kind, empty.message]).toEqual([
      'conflict',
      "The member's Stripe balance is too low for this payout: the commission's funds are not available in it yet. Try again later.",
    ]);
    const noCard = (await gateway.createConnectedAccount(member())).id;
    const without = await refusal(
      gateway.createPayout({ accountId: noCard, amountCents: 100, idempotencyKey: `none-${noCard}`, metadata: {} }),
    );
    expect([without.kind, without.message]).toEqual([
      'conflict',
      'The member has no debit card at Stripe to pay out to.',
    ]);
  });

  it('reads payout.failed (with the account and the failure message) and transfer.created', async () => {
    const now = Math.floor(Date.now() / 1000);
    const failed = JSON.stringify({
      id: 'evt_po',
      object: 'event',
      type: 'payout.failed',
      account: 'acct_9',
      created: 1_700_000_100,
      data: {
        object: {
          id: 'po_1',
          object: 'payout',
          metadata: { commissionId: 'c1', attempt: '0' },
          amount: 1250,
          arrival_date: 1_700_086_400,
          method: 'instant',
          failure_code: 'could_not_process',
          failure_message: 'The bank could not process this payout.',
        },
      },
    });
    expect(await gateway.verifyEvent(failed, signature(failed, CONNECT_SECRET, now), 'connect')).toEqual({
      id: 'evt_po',
      kind: 'payout.failed',
      payoutId: 'po_1',
      accountId: 'acct_9',
      metadata: { commissionId: 'c1', attempt: '0' },
      failure: 'The bank could not process this payout.',
      failureCode: 'could_not_process',
      created: 1_700_000_100,
      amountCents: 1250,
      arrivalDate: 1_700_086_400,
      method: 'instant',
    });
    const transfer = JSON.stringify({
      id: 'evt_tr',
      object: 'event',
      type: 'transfer.created',
      created: 1_700_000_200,
      data: { object: { id: 'tr_1', object: 'transfer', metadata: { commissionId: 'c1' } } },
    });
    expect(await gateway.verifyEvent(transfer, signature(transfer, WEBHOOK_SECRET, now), 'platform')).toEqual({
      id: 'evt_tr',
      kind: 'transfer.created',
      transferId: 'tr_1',
      metadata: { commissionId: 'c1' },
      created: 1_700_000_200,
    });
  });
});
