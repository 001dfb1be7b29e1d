import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type Stripe from 'stripe';
import type { IdNumberOutcome, Verification } from './accounts';
import type { CouponState } from './coupons';
import type { Ledger } from './money';

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

/** Everything the emulator knows; written whole to `state.json` after every change. */
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

/** The state kept under `dataDir` (0700) in `state.json` (0600), replaced atomically: temp file, then rename. */
export class Store {
  readonly file: string;
  state: State;

  constructor(readonly dataDir: string) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    chmodSync(dataDir, 0o700);
    this.file = join(dataDir, 'state.json');
    this.state = existsSync(this.file)
      ? { ...emptyState(), ...(JSON.parse(readFileSync(this.file, 'utf8')) as Partial<State>) }
      : emptyState();
  }

  save(): void {
    const temp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(this.state), { mode: 0o600 });
    renameSync(temp, this.file);
  }
}
