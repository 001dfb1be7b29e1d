import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type Stripe from 'stripe';
import type { IdNumberOutcome, Verification } from './accounts';
import type { CouponState } from './coupons';
import type { Ledger } from './money';
import { processWide } from '../process-wide';

/** Amounts in the smallest currency unit, per currency, of one balance (the platform's or a connected account's). */
export interface Funds {
  available: Record<string, number>;
  pending: Record<string, number>;
}

export interface IdempotentResponse {
  /** SHA-256 of the method, path and parameters with the identity numbers and dates left out. */
  fingerprint: string;
  /** HMAC-SHA256 of the whole request under a key that lives in memory only (never written), and that key's id. */
  keyedFingerprint?: string;
  keyId?: string;
  status: number;
  body: string;
  /** Milliseconds on the emulator clock; the key expires 24 hours later. */
  created?: number;
}

/** Everything the emulator knows; written whole to `state.json` shortly after a change (`Store`). */
export interface State extends Ledger, CouponState {
  accounts: Record<string, Stripe.Account>;
  tokens: Record<string, Stripe.Token>;
  /** External accounts (cards) per connected account, newest last. */
  externalAccounts: Record<string, Stripe.Card[]>;
  /** Before balance transactions (an older state file): read once into opening transactions. */
  balances?: Record<string, Funds>;
  charges: Record<string, Stripe.Charge>;
  disputes: Record<string, Stripe.Dispute>;
  refunds: Record<string, Stripe.Refund>;
  /** Stripe's identity check per connected account. */
  verifications: Record<string, Verification>;
  /** How the ID number last given verifies, per account (never the number). */
  idNumbers: Record<string, IdNumberOutcome>;
  /** When each account's next scheduled payout runs (seconds on the emulator clock). */
  nextPayoutAt: Record<string, number>;
  /** The platform that made each account, when it is not the main one (see `otherPlatformKeys`). */
  platforms: Record<string, string>;
  transfers: Record<string, Stripe.Transfer>;
  /** Payouts per owner (`platform` or a connected account id). */
  payouts: Record<string, Stripe.Payout[]>;
  paymentIntents: Record<string, Stripe.PaymentIntent>;
  /** Card PaymentMethods made from card tokens (POST /v1/payment_methods, as Stripe.js makes them). */
  paymentMethods: Record<string, Stripe.PaymentMethod>;
  events: Stripe.Event[];
  /** By owner, method, path and key. */
  idempotency: Record<string, IdempotentResponse>;
  /**
   * SHA-256 digests (never the keys) of the platform's secret key and of those it held before: a
   * start with another key expires the one before, which is then answered `api_key_expired`.
   */
  secretKeys?: { current: string; expired: string[] };
  /** The webhook endpoints registered through the API (`/v1/webhook_endpoints`), by id. */
  webhookEndpoints?: Record<string, StoredEndpoint>;
}

/** The endpoints as the state keeps them: Stripe's object, and whether it listens to connected accounts (not in the object). */
export type StoredEndpoint = { endpoint: Stripe.WebhookEndpoint; connect: boolean };

export const PLATFORM = 'platform';
/** The platform the secret key (and the publishable key) opens; `otherPlatformKeys` open others. */
export const MAIN_PLATFORM = 'main';

export function emptyState(): State {
  return {
    accounts: {},
    tokens: {},
    externalAccounts: {},
    balanceTransactions: {},
    charges: {},
    disputes: {},
    refunds: {},
    verifications: {},
    idNumbers: {},
    nextPayoutAt: {},
    platforms: {},
    transfers: {},
    payouts: {},
    paymentIntents: {},
    paymentMethods: {},
    events: [],
    idempotency: {},
  };
}

/**
 * The state kept under `dataDir` (0700) in `state.json` (0600), replaced atomically: temp file, then
 * rename. A change asks for a write (`save`); the writes are coalesced: one at most every
 * `SAVE_EVERY_MS`, or every ten times the last write's own time when the state has grown, so that
 * writing the whole state stays a small share of the emulator's time however much it holds
 * (decision 0470: a write after every request made 1,000 intents cost 15 s, then 25 s, then 30 s
 * as the state grew). `flush` writes at once; `stop` and the process's exit flush.
 */
export class Store {
  readonly file: string;
  state: State;
  private dirty = false;
  private timer: NodeJS.Timeout | undefined;
  private lastWriteMs = 0;

  constructor(readonly dataDir: string) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    chmodSync(dataDir, 0o700);
    this.file = join(dataDir, 'state.json');
    this.state = existsSync(this.file)
      ? { ...emptyState(), ...(JSON.parse(readFileSync(this.file, 'utf8')) as Partial<State>) }
      : emptyState();
    unwritten.add(this);
  }

  /** Asks for a write of the whole state; it happens within `SAVE_EVERY_MS` (more for a large state). */
  save(): void {
    this.dirty = true;
    if (this.timer) return;
    this.timer = setTimeout(
      () => {
        try {
          this.flush();
        } catch (error) {
          // Kept to be written with the next change or at close (which throws it); never a crash of the emulator.
          this.dirty = true;
          console.error(`The Stripe emulator could not write ${this.file}: ${(error as Error).message}`);
        }
      },
      Math.max(SAVE_EVERY_MS, this.lastWriteMs * 10),
    ).unref();
  }

  /** Writes the state now when a change is not yet written. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.dirty) return;
    this.dirty = false;
    const started = performance.now();
    const temp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(this.state), { mode: 0o600 });
    renameSync(temp, this.file);
    this.lastWriteMs = performance.now() - started;
  }

  /** Writes what is left and stops writing on exit (the emulator has stopped). */
  close(): void {
    this.flush();
    unwritten.delete(this);
  }
}

/**
 * The stores of this process not yet closed: each writes what it holds when the process exits (one
 * listener for all, however many times this module is loaded: process-wide.ts).
 */
const unwritten = processWide('stripeStores', () => {
  const stores = new Set<Store>();
  process.on('exit', () => {
    for (const store of stores) store.flush();
  });
  return stores;
});

/** The longest a change waits to be written while the state is small. */
export const SAVE_EVERY_MS = 100;
