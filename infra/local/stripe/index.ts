import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Clock, type EmulatorClock } from './clock';
import { Emulator } from './emulator';
import type { StripeFaults } from './faults';
import { InstantPayoutsControl } from './instant-payouts';
import { createEmulatorServer, keyDigest, type Exchange } from './server';
import { Store } from './store';
import { STRIPE_TEST_MODE_RETRY_DELAYS_MS, Waiter, WebhookSender } from './webhooks';

export { API_VERSION, FAIL_AFTER_PAID_METADATA, FAIL_PAYOUT_METADATA } from './emulator';
export { PAYOUT_FAILING_DEBIT_CARD } from './cards';
export type { Exchange } from './server';
export { signature, STRIPE_TEST_MODE_RETRY_DELAYS_MS } from './webhooks';
export type { EmulatorClock } from './clock';
export { PUBLISHABLE_KEY_REFUSED } from './server';
export { CONNECT_NOT_SIGNED_UP } from './platform';

/** One webhook endpoint: where signed events are posted, and its signing secret (`whsec_…`). */
export interface WebhookEndpoint {
  /** The URL, or a function naming it at each delivery (`undefined` while there is no endpoint: the event is only listed). */
  url: string | (() => string | undefined);
  secret: string;
}

export interface StripeEmulatorOptions {
  /** Where `state.json` lives (created 0700); the state survives a restart. */
  dataDir: string;
  /** Defaults to a free port chosen by the OS. */
  port?: number;
  /**
   * Where signed events are posted (or a function naming it at each delivery, for an endpoint
   * that listens after the emulator starts, `undefined` while there is none); without it events
   * are only listed by `GET /v1/events`.
   */
  webhookUrl?: string | (() => string | undefined);
  /** The signing secret (`whsec_…`) of that endpoint. */
  webhookSecret?: string;
  /**
   * The two endpoints a Connect platform has at Stripe, each with its own secret: `account`
   * receives the platform's own events (payments, charges, disputes, transfers, balance),
   * `connect` the connected accounts' events (`account.updated`, external accounts, payouts;
   * they carry `account`). Either falls back to `webhookUrl`/`webhookSecret` when not given.
   */
  webhooks?: { account?: WebhookEndpoint; connect?: WebhookEndpoint };
  /** Test only: `shuffled` delivers the events of one moment in another order than they happened. */
  deliveryOrder?: 'created' | 'shuffled';
  /**
   * How long Stripe takes to verify an account's identity (the `transfers` capability `pending`
   * meanwhile) unless the details are Stripe's immediate-verification test values; default 3 s.
   */
  verificationDelayMs?: number;
  /**
   * The platform's secret key (`sk_test_…`), the only one it accepts, as Stripe accepts only an
   * account's own keys: `npm start` gives the data folder's (`.local/secrets.json`), a test its
   * own; without it the emulator makes one for this start (`emulator.secretKey`). Every other key
   * is answered as Stripe answers it: 401 "Invalid API Key provided", and the key this data
   * folder's emulator held before (a start with a new key rolls it) 401 `api_key_expired`.
   */
  secretKey?: string;
  /**
   * The publishable key (`pk_test_…`) paired with the secret key: accepted, as at Stripe, only
   * for the calls a browser makes (card tokens, confirming a payment intent). Without it no
   * publishable key is accepted.
   */
  publishableKey?: string;
  /**
   * Test only: `false` for a platform that has not signed up for Connect (its Dashboard's Connect →
   * Get started not done): connected accounts are refused as Stripe refuses them. Default `true`.
   */
  platformConnect?: boolean;
  /** Waits before each retry of an undelivered event; defaults to Stripe's test mode schedule (1 h, 2 h, 4 h). */
  webhookRetryDelaysMs?: number[];
  log?: (line: string) => void;
  /** Sees every request and its answer (the OpenAPI conformance test records them). */
  onExchange?: (exchange: Exchange) => void;
  /**
   * Test only: the secret keys of other platforms at the same Stripe. Each opens a platform of its
   * own, which cannot reach this platform's accounts (403, as Stripe answers) nor they its.
   */
  otherPlatformKeys?: readonly string[];
  /**
   * The platform account's payout schedule (`settings.payouts.schedule.interval`, set in Stripe's
   * Dashboard): `daily` by default, as Stripe sets a new account (its available balance paid out
   * at each 00:00 UTC); `manual` keeps it, as the portal needs for orders entered by hand.
   */
  platformPayouts?: 'daily' | 'manual';
  /** Test only: the faults to throw (`new StripeFaults()` from testing.ts, then `inject(...)`). */
  faults?: StripeFaults;
  /**
   * Whether Stripe lets the platform make Instant Payouts, and its daily volume
   * (`new InstantPayoutsControl({ eligible, dailyLimitCents })` from testing.ts, changeable while
   * running); default: eligible, $10,000 a day (decision 0270).
   */
  instantPayouts?: InstantPayoutsControl;
}

export interface StripeEmulator {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** The secret key it accepts (the one given, or the one it made). */
  secretKey: string;
  host: string;
  port: number;
  /** Resolves when every payout has settled and every event is delivered (or given up). */
  idle(): Promise<void>;
  /** The emulator's clock: real time plus an offset; `advance(ms)` runs what became due. */
  clock: EmulatorClock;
  /**
   * Test only: the card holder's bank disputes `amount` cents of a charge (a chargeback,
   * `needs_response`, `charge.dispute.created`), as happens live for part of an order; Stripe's
   * test cards dispute the whole amount. Answers the dispute's id.
   */
  dispute(chargeId: string, amount: number, reason?: string): string;
  /**
   * Test only: the bank returns a payout Stripe already marked paid (docs.stripe.com/api/payouts/object,
   * status: "Some payouts that fail might initially show as paid, then change to failed"): it fails
   * with `code`, its amount back in the account's balance, `payout.failed`. Throws for a payout that is not paid.
   */
  returnPayout(accountId: string, payoutId: string, code?: string): void;
  stop(): Promise<void>;
}

/** Keeps at most this many expired keys' digests. */
const EXPIRED_KEYS_KEPT = 20;

/**
 * Records the key this start accepts in the state (its digest): the key a previous start accepted,
 * when it was another, is expired from now on, as a rolled key is at Stripe. Gives the expired digests.
 */
function rollSecretKey(store: Store, digest: string): string[] {
  const known = store.state.secretKeys;
  if (known?.current === digest) return known.expired;
  const expired = [...(known ? [known.current] : []), ...(known?.expired ?? [])]
    .filter((one) => one !== digest)
    .slice(0, EXPIRED_KEYS_KEPT);
  store.state.secretKeys = { current: digest, expired };
  store.save();
  store.flush();
  return expired;
}

/**
 * A local stand-in for the parts of Stripe's API the payouts use (Connect custom accounts, card
 * tokens, debit-card external accounts, balance, transfers, payouts, payment intents, events),
 * on 127.0.0.1. Point the `stripe` SDK at it with `{ host: '127.0.0.1', port, protocol: 'http' }`.
 */
export async function startStripeEmulator(options: StripeEmulatorOptions): Promise<StripeEmulator> {
  if (options.webhookUrl && !options.webhookSecret) throw new Error('webhookSecret is needed with webhookUrl');
  const log = options.log ?? ((line: string) => console.warn(line));
  const clock = new Clock();
  const waiter = new Waiter(() => clock.now());
  const secretKey = options.secretKey ?? `sk_test_${randomBytes(24).toString('hex')}`;
  if (!/^sk_test_[A-Za-z0-9_]+$/.test(secretKey)) {
    throw new Error('The Stripe emulator takes a test-mode secret key (sk_test_ and letters, digits or _).');
  }
  const store = new Store(options.dataDir);
  const expiredDigests = rollSecretKey(store, keyDigest(secretKey));
  const fallback: WebhookEndpoint | undefined =
    options.webhookUrl && options.webhookSecret
      ? { url: options.webhookUrl, secret: options.webhookSecret }
      : undefined;
  const sender = (endpoint: WebhookEndpoint | undefined) =>
    endpoint
      ? new WebhookSender(
          {
            url: endpoint.url,
            secret: endpoint.secret,
            retryDelaysMs: options.webhookRetryDelaysMs ?? STRIPE_TEST_MODE_RETRY_DELAYS_MS,
            deliveryOrder: options.deliveryOrder ?? 'created',
          },
          log,
          waiter,
        )
      : undefined;
  // One URL for both kinds (the old options alone): one sender, so events go out in the order they happened.
  const shared = !options.webhooks?.account && !options.webhooks?.connect ? sender(fallback) : undefined;
  const accountSender = shared ?? sender(options.webhooks?.account ?? fallback);
  const connectSender = shared ?? sender(options.webhooks?.connect ?? fallback);
  const senders = [...new Set([accountSender, connectSender])].filter((one): one is WebhookSender => one !== undefined);
  const pending = new Set<Promise<void>>();
  // After the answer is written (setImmediate runs once the current I/O callbacks are done).
  const later = (work: () => void) => {
    const task = new Promise<void>((resolve) => setImmediate(resolve)).then(work);
    pending.add(task);
    void task.finally(() => pending.delete(task));
  };
  const emulator = new Emulator(store, { account: accountSender, connect: connectSender }, later, clock, {
    platformConnect: options.platformConnect ?? true,
    verificationDelayMs: options.verificationDelayMs ?? 3_000,
    platformPayouts: options.platformPayouts ?? 'daily',
    instantPayouts: options.instantPayouts ?? new InstantPayoutsControl(),
  });
  const settle = async () => {
    while (pending.size) await Promise.all([...pending]);
  };
  clock.onAdvance = async () => {
    await settle();
    emulator.runDue();
    waiter.wake();
    await settle();
  };
  // In real time too: funds become available, verifications finish, scheduled payouts go out.
  const ticker = setInterval(() => {
    try {
      emulator.runDue();
    } catch (error) {
      log(`Stripe emulator: ${error instanceof Error ? error.message : String(error)}`);
    }
  }, 500);
  ticker.unref();
  const server = createEmulatorServer(emulator, store, {
    onExchange: options.onExchange,
    keys: {
      secretKey,
      publishableKey: options.publishableKey,
      otherPlatformKeys: options.otherPlatformKeys,
      expiredDigests,
    },
    faults: options.faults,
    clock,
  });
  const host = '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const idle = async () => {
    await settle();
    await Promise.all(senders.map((one) => one.idle()));
    await settle();
  };
  return {
    url: `http://${host}:${port}`,
    secretKey,
    host,
    port,
    idle,
    clock,
    dispute: (chargeId, amount, reason = 'fraudulent') => {
      const id = emulator.openDispute(chargeId, reason, 'needs_response', amount);
      if (!id) throw new Error(`No such charge: ${chargeId}`);
      return id;
    },
    returnPayout: (accountId, payoutId, code = 'account_closed') => {
      if (!emulator.returnPaidPayout(accountId, payoutId, code)) throw new Error(`No paid payout ${payoutId}`);
    },
    stop: async () => {
      clearInterval(ticker);
      await Promise.all([...pending]);
      for (const one of senders) one.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      store.close();
    },
  };
}
