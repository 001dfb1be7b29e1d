import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { loadParameterCheck } from './documented';
import type { Clock } from './clock';
import { API_VERSION, IDEMPOTENCY_KEY_LIFETIME_MS, type CallContext, type Emulator } from './emulator';
import { StripeApiError, noAccess } from './errors';
import { faultBody, type StripeFaults } from './faults';
import { stripeId } from './ids';
import { parseParams, type Params } from './params';
import { MAIN_PLATFORM, PLATFORM, type Store } from './store';

/** One request and its answer, as the conformance test checks them against Stripe's OpenAPI document. */
export interface Exchange {
  method: string;
  path: string;
  params: Params;
  status: number;
  body: unknown;
}

/** `id` is the path's `{id}`, or empty; `more` holds the path's further ids (`{id}/…/{id}`). */
type Handler = (id: string, params: Params, context: CallContext, more: string[]) => unknown;

interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  pattern: RegExp;
  handler: Handler;
}

const ID = '([A-Za-z0-9_]+)';

function routes(emulator: Emulator): Route[] {
  const route = (method: Route['method'], path: string, handler: Handler): Route => ({
    method,
    pattern: new RegExp(`^${path.replaceAll('{id}', ID)}$`),
    handler,
  });
  return [
    route('POST', '/v1/accounts', (_, params, context) => emulator.createAccount(params, context)),
    route('GET', '/v1/accounts', (_, params, context) => emulator.listAccounts(params, context)),
    route('GET', '/v1/account', (_, __, context) => emulator.retrieveAccount(undefined, context)),
    route('GET', '/v1/accounts/{id}', (id, _, context) => emulator.retrieveAccount(id, context)),
    route('POST', '/v1/accounts/{id}', (id, params, context) => emulator.updateAccount(id, params, context)),
    route('POST', '/v1/accounts/{id}/external_accounts', (id, params, context) =>
      emulator.createExternalAccount(id, params, context),
    ),
    route('GET', '/v1/accounts/{id}/external_accounts', (id, params, context) =>
      emulator.listExternalAccounts(id, params, context),
    ),
    route('DELETE', '/v1/accounts/{id}/external_accounts/{id}', (id, _, context, [externalId]) =>
      emulator.deleteExternalAccount(id, externalId ?? '', context),
    ),
    route('POST', '/v1/tokens', (_, params) => emulator.createToken(params)),
    route('POST', '/v1/payment_methods', (_, params) => emulator.createPaymentMethod(params)),
    route('GET', '/v1/balance', (_, __, context) => emulator.balance(context)),
    route('GET', '/v1/balance_transactions', (_, params, context) => emulator.listBalanceTransactions(params, context)),
    route('GET', '/v1/balance_transactions/{id}', (id, _, context) => emulator.balanceTransaction(id, context)),
    route('GET', '/v1/charges', (_, params, context) => emulator.listCharges(params, context)),
    route('GET', '/v1/charges/{id}', (id, _, context) => emulator.charge(id, context)),
    route('POST', '/v1/transfers', (_, params, context) => emulator.createTransfer(params, context)),
    route('GET', '/v1/transfers', (_, params, context) => emulator.listTransfers(params, context)),
    route('GET', '/v1/transfers/{id}', (id, _, context) => emulator.transfer(id, context)),
    route('POST', '/v1/transfers/{id}/reversals', (id, params, context) =>
      emulator.createTransferReversal(id, params, context),
    ),
    route('GET', '/v1/transfers/{id}/reversals', (id, params, context) =>
      emulator.listTransferReversals(id, params, context),
    ),
    route('GET', '/v1/disputes', (_, params, context) => emulator.listDisputes(params, context)),
    route('GET', '/v1/disputes/{id}', (id, _, context) => emulator.dispute(id, context)),
    route('POST', '/v1/disputes/{id}', (id, params, context) => emulator.updateDispute(id, params, context)),
    route('POST', '/v1/disputes/{id}/close', (id, _, context) => emulator.acceptDispute(id, context)),
    route('POST', '/v1/refunds', (_, params, context) => emulator.createRefund(params, context)),
    route('GET', '/v1/refunds', (_, params, context) => emulator.listRefunds(params, context)),
    route('GET', '/v1/refunds/{id}', (id, _, context) => emulator.refund(id, context)),
    route('POST', '/v1/payouts', (_, params, context) => emulator.createPayout(params, context)),
    route('GET', '/v1/payouts', (_, params, context) => emulator.listPayouts(params, context)),
    route('GET', '/v1/payouts/{id}', (id, _, context) => emulator.payout(id, context)),
    route('POST', '/v1/payment_intents', (_, params, context) => emulator.createPaymentIntent(params, context)),
    route('GET', '/v1/payment_intents', (_, params, context) => emulator.listPaymentIntents(params, context)),
    route('GET', '/v1/payment_intents/{id}', (id, _, context) => emulator.paymentIntent(id, context)),
    route('POST', '/v1/payment_intents/{id}/confirm', (id, params, context) =>
      emulator.confirmPaymentIntent(id, params, context),
    ),
    route('POST', '/v1/payment_intents/{id}/cancel', (id, params, context) =>
      emulator.cancelPaymentIntent(id, params, context),
    ),
    route('POST', '/v1/webhook_endpoints', (_, params, context) => emulator.createWebhookEndpoint(params, context)),
    route('GET', '/v1/webhook_endpoints', (_, params, context) => emulator.listWebhookEndpoints(params, context)),
    route('GET', '/v1/webhook_endpoints/{id}', (id, _, context) => emulator.retrieveWebhookEndpoint(id, context)),
    route('POST', '/v1/webhook_endpoints/{id}', (id, params, context) =>
      emulator.updateWebhookEndpoint(id, params, context),
    ),
    route('DELETE', '/v1/webhook_endpoints/{id}', (id, _, context) => emulator.deleteWebhookEndpoint(id, context)),
    route('POST', '/v1/coupons', (_, params, context) => emulator.createCoupon(params, context)),
    route('GET', '/v1/coupons', (_, params, context) => emulator.listCoupons(params, context)),
    route('GET', '/v1/coupons/{id}', (id, _, context) => emulator.retrieveCoupon(id, context)),
    route('POST', '/v1/coupons/{id}', (id, params, context) => emulator.updateCoupon(id, params, context)),
    route('DELETE', '/v1/coupons/{id}', (id, _, context) => emulator.deleteCoupon(id, context)),
    route('POST', '/v1/promotion_codes', (_, params, context) => emulator.createPromotionCode(params, context)),
    route('GET', '/v1/promotion_codes', (_, params, context) => emulator.listPromotionCodes(params, context)),
    route('GET', '/v1/promotion_codes/{id}', (id, _, context) => emulator.retrievePromotionCode(id, context)),
    route('POST', '/v1/promotion_codes/{id}', (id, params, context) =>
      emulator.updatePromotionCode(id, params, context),
    ),
    route('GET', '/v1/events', (_, params, context) => emulator.listEvents(params, context)),
    route('GET', '/v1/events/{id}', (id, _, context) => emulator.retrieveEvent(id, context)),
  ];
}

const NO_KEY =
  "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.";

/** Stripe's answer to a publishable key on a call that needs a secret key. */
export const PUBLISHABLE_KEY_REFUSED =
  'This API call cannot be made with a publishable API key. Please use a secret API key. You can find a list of your API keys at https://dashboard.stripe.com/account/apikeys.';

/** The calls Stripe lets a browser make with the publishable key (Stripe.js): card tokens, confirming a payment. */
const PUBLISHABLE_CALLS: readonly { method: string; pattern: RegExp }[] = [
  { method: 'POST', pattern: /^\/v1\/tokens$/ },
  { method: 'POST', pattern: /^\/v1\/payment_methods$/ },
  { method: 'POST', pattern: /^\/v1\/payment_intents\/[A-Za-z0-9_]+\/confirm$/ },
];

const masked = (key: string) =>
  key.length > 12 ? `${key.slice(0, 8)}${'*'.repeat(key.length - 12)}${key.slice(-4)}` : key;

/** A key's SHA-256: what the emulator compares (in constant time) and what its state remembers of a key. */
export const keyDigest = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

const sameDigest = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));

/** The keys the emulator accepts, as a Stripe account has its own. */
export interface EmulatorKeys {
  /** This platform's secret key (`sk_test_…`): every call. */
  secretKey: string;
  /** The pair's publishable key (`pk_test_…`): the browser's calls only (PUBLISHABLE_CALLS). */
  publishableKey?: string | undefined;
  /** Test only: other platforms' secret keys, each opening a platform of its own at the same Stripe. */
  otherPlatformKeys?: readonly string[] | undefined;
  /** Digests (keyDigest) of the secret keys this data folder's platform held before: expired, as a rolled key is. */
  expiredDigests?: readonly string[] | undefined;
}

interface Caller {
  key: string;
  /** `main`, or another platform (otherPlatformKeys) named by a hash of its key. */
  platform: string;
  publishable: boolean;
}

/**
 * Only the platform's own secret key opens the emulator (and, in tests, the other platforms'
 * keys); the pair's publishable key only the browser's calls, refused elsewhere as Stripe refuses
 * it. Any other key is answered as Stripe answers it: 401, "Invalid API Key provided", or for a
 * key the platform held before, "Expired API Key provided" with the code `api_key_expired`.
 */
function authenticate(header: string | undefined, method: string, path: string, keys: EmulatorKeys): Caller {
  if (!header) throw new StripeApiError(401, 'invalid_request_error', NO_KEY);
  const match = /^Bearer (\S+)$/.exec(header);
  const key = match?.[1] ?? '';
  const digest = keyDigest(key);
  if (sameDigest(digest, keyDigest(keys.secretKey))) return { key, platform: MAIN_PLATFORM, publishable: false };
  if (keys.otherPlatformKeys?.some((other) => sameDigest(digest, keyDigest(other)))) {
    return { key, platform: `other_${digest.slice(0, 16)}`, publishable: false };
  }
  if (keys.publishableKey && sameDigest(digest, keyDigest(keys.publishableKey))) {
    if (PUBLISHABLE_CALLS.some((call) => call.method === method && call.pattern.test(path))) {
      return { key, platform: MAIN_PLATFORM, publishable: true };
    }
    throw new StripeApiError(401, 'invalid_request_error', PUBLISHABLE_KEY_REFUSED);
  }
  if (keys.expiredDigests?.some((expired) => sameDigest(digest, expired))) {
    throw new StripeApiError(401, 'invalid_request_error', `Expired API Key provided: ${masked(key)}`, {
      code: 'api_key_expired',
    });
  }
  throw new StripeApiError(401, 'invalid_request_error', `Invalid API Key provided: ${masked(key)}`);
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > 1_000_000) reject(new StripeApiError(413, 'invalid_request_error', 'Request body too large.'));
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

const header = (request: IncomingMessage, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** Identity numbers and dates, at any depth: left out of the stored fingerprint (see `fingerprints`). */
const SENSITIVE = new Set(['id_number', 'ssn_last_4', 'dob', 'tax_id', 'personal_id_number']);

/** The request's parameters without the sensitive ones (at any depth), in a stable text. */
function withoutSensitive(params: Params): string {
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([key]) => !SENSITIVE.has(key))
        .map(([key, inner]) => [key, strip(inner)]),
    );
  };
  return JSON.stringify(strip(params));
}

/**
 * The two fingerprints of a request kept with its idempotency key: a SHA-256 of everything but the
 * identity numbers and dates (nothing in it can be guessed back to a tax ID), and an HMAC of the
 * whole request under a key made at start and held in memory only. After a restart the keyed one
 * cannot be compared (its key is gone) and the plain one alone decides.
 */
function fingerprints(key: Buffer, method: string, path: string, text: string, params: Params) {
  return {
    fingerprint: createHash('sha256')
      .update(`${method} ${path} ${withoutSensitive(params)}`)
      .digest('hex'),
    keyedFingerprint: createHmac('sha256', key).update(`${method} ${path} ${text}`).digest('hex'),
  };
}

export interface ServerHooks {
  onExchange?: ((exchange: Exchange) => void) | undefined;
  /** The keys it accepts (authenticate). */
  keys: EmulatorKeys;
  /** A test's faults (see faults.ts); absent under `npm start`. */
  faults?: StripeFaults | undefined;
  clock: Clock;
}

export function createEmulatorServer(emulator: Emulator, store: Store, hooks: ServerHooks): Server {
  const table = routes(emulator);
  const checkParameters = loadParameterCheck();
  // The fingerprint key: made here, never written (state.json holds only its id).
  const fingerprintKey = randomBytes(32);
  const fingerprintKeyId = createHash('sha256').update(fingerprintKey).digest('hex').slice(0, 16);
  /** Idempotency keys whose first request is still executing. */
  const inFlight = new Set<string>();

  async function answer(
    request: IncomingMessage,
    requestId: string,
    slowMs: number,
  ): Promise<{ status: number; body: unknown; replayed: boolean; params: Params; path: string }> {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const method = request.method ?? 'GET';
    const text = method === 'POST' ? await readBody(request) : url.search.slice(1);
    let params: Params = {};
    try {
      const { key, platform, publishable } = authenticate(
        header(request, 'authorization'),
        method,
        url.pathname,
        hooks.keys,
      );
      params = parseParams(text);
      const route = table.find((candidate) => candidate.method === method && candidate.pattern.test(url.pathname));
      if (!route) {
        throw new StripeApiError(
          404,
          'invalid_request_error',
          `Unrecognized request URL (${method}: ${url.pathname}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
        );
      }
      checkParameters(method, url.pathname, params);
      const owner = header(request, 'stripe-account') ?? PLATFORM;
      if (
        owner !== PLATFORM &&
        (!store.state.accounts[owner] || (store.state.platforms[owner] ?? MAIN_PLATFORM) !== platform)
      ) {
        throw noAccess(masked(key), owner);
      }
      const idempotencyKey = method === 'POST' ? header(request, 'idempotency-key') : undefined;
      const slot = idempotencyKey ? `${owner} ${idempotencyKey}` : undefined;
      const prints = fingerprints(fingerprintKey, method, url.pathname, text, params);
      const now = hooks.clock.now();
      let saved = slot ? store.state.idempotency[slot] : undefined;
      if (saved && slot && (saved.created ?? 0) + IDEMPOTENCY_KEY_LIFETIME_MS <= now) {
        delete store.state.idempotency[slot];
        saved = undefined;
      }
      if (saved) {
        const sameKeyed = saved.keyId !== fingerprintKeyId || saved.keyedFingerprint === prints.keyedFingerprint;
        if (saved.fingerprint !== prints.fingerprint || !sameKeyed) {
          throw new StripeApiError(
            400,
            'idempotency_error',
            `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
          );
        }
        return { status: saved.status, body: JSON.parse(saved.body), replayed: true, params, path: url.pathname };
      }
      if (slot && inFlight.has(slot)) {
        // Stripe's answer while the first request with this key is still executing; the SDK retries a 409.
        throw new StripeApiError(
          409,
          'idempotency_error',
          `There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through): ${idempotencyKey}. Please try again later.`,
        );
      }
      const context: CallContext = {
        owner,
        requestId,
        idempotencyKey,
        publishable,
        maskedKey: masked(key),
        platform,
      };
      if (slot) inFlight.add(slot);
      let status = 200;
      let body: unknown;
      let keep = true;
      try {
        // The call is executing from here: a slow fault holds it here, in flight.
        if (slowMs > 0) await new Promise((resolve) => setTimeout(resolve, slowMs));
        try {
          const ids = route.pattern.exec(url.pathname)?.slice(1) ?? [];
          body = route.handler(ids[0] ?? '', params, context, ids.slice(1));
        } catch (error) {
          if (!(error instanceof StripeApiError)) throw error;
          status = error.status;
          body = error.body(requestId);
          // A parameter that failed validation: nothing is kept for the key (Stripe's rule).
          keep = !error.validation;
        }
        // Stripe keeps the result of every call that started executing, errors included.
        if (slot && keep) {
          store.state.idempotency[slot] = {
            fingerprint: prints.fingerprint,
            keyedFingerprint: prints.keyedFingerprint,
            keyId: fingerprintKeyId,
            status,
            body: JSON.stringify(body),
            created: now,
          };
        }
      } finally {
        if (slot) inFlight.delete(slot);
      }
      if (method !== 'GET') store.save();
      return { status, body: structuredClone(body), replayed: false, params, path: url.pathname };
    } catch (error) {
      if (error instanceof StripeApiError)
        return { status: error.status, body: error.body(requestId), replayed: false, params, path: url.pathname };
      throw error;
    }
  }

  return createServer((request: IncomingMessage, response: ServerResponse) => {
    const requestId = stripeId('req', 14);
    const fault = hooks.faults?.take(
      request.method ?? 'GET',
      new URL(request.url ?? '/', 'http://localhost').pathname,
      header(request, 'idempotency-key'),
    );
    if (fault?.kind === 'status') {
      // Before any work: nothing is done, nothing is kept for the key.
      request.resume();
      response.writeHead(fault.status, { 'Content-Type': 'application/json', 'Request-Id': requestId });
      response.end(JSON.stringify(faultBody(fault.status, requestId)));
      return;
    }
    answer(request, requestId, fault?.kind === 'slow' ? fault.ms : 0)
      .then(({ status, body, replayed, params, path }) => {
        hooks.onExchange?.({ method: request.method ?? 'GET', path, params, status, body });
        // The work is done (and kept for its key): the connection drops with no answer.
        if (fault?.kind === 'drop') return void request.socket.destroy();
        const send = () => {
          if (response.destroyed) return;
          response.writeHead(status, {
            'Content-Type': 'application/json',
            'Request-Id': requestId,
            'Stripe-Version': header(request, 'stripe-version') ?? API_VERSION,
            ...(replayed ? { 'Idempotent-Replayed': 'true' } : {}),
            ...(status === 409 ? { 'Stripe-Should-Retry': 'true' } : {}),
          });
          response.end(JSON.stringify(body, null, 2));
        };
        if (fault?.kind !== 'delay') return send();
        // The work is done; the answer comes after `ms` (or never, if the client gave up first).
        const timer = setTimeout(send, fault.ms);
        response.once('close', () => clearTimeout(timer));
      })
      .catch((error: unknown) => {
        const failure = new StripeApiError(500, 'api_error', error instanceof Error ? error.message : 'Internal error');
        response.writeHead(500, { 'Content-Type': 'application/json', 'Request-Id': requestId });
        response.end(JSON.stringify(failure.body(requestId)));
      });
  });
}
