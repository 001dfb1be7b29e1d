import type Stripe from 'stripe';
import { DomainError, badRequest, conflict, unavailable } from '../errors';

/**
 * The Stripe SDK's client and Stripe's errors in our words: the payments gateway and the
 * reconciliation's Stripe records both call Stripe through these (decision 0401: a common adapter
 * helper, so neither capability's folder reads the other's).
 */

/** The API version the adapter speaks, the installed SDK's own (its types describe it). */
export const API_VERSION = '2026-10-28.endive' as const satisfies Stripe.LatestApiVersion;

/** The connected accounts' merchant category: Misc. General Merchandise (see createConnectedAccount). */
export const MCC_GENERAL_MERCHANDISE = '5399';

/** Stripe's own tolerance for a webhook's timestamp, in seconds. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export interface StripeGatewaySettings {
  secretKey: () => Promise<string>;
  /** The platform endpoint's signing secret (`/api/stripeWebhook`). */
  webhookSecret: () => Promise<string>;
  /** The Connect endpoint's signing secret (`/api/stripeConnectWebhook`). */
  connectWebhookSecret: () => Promise<string>;
  /** `STRIPE_API_URL`: the local emulator; undefined talks to https://api.stripe.com. */
  apiUrl: () => string | undefined;
  /** Each attempt's timeout in ms (the fault tests shorten it); undefined: TIMEOUT_MS. */
  timeoutMs?: () => number | undefined;
}

/**
 * Each attempt's timeout and the retries after it: three attempts of 4 s and the SDK's waits
 * (0.5–1 s) take at most about 14 s, twice that for a payout's two calls, within the 29 s the
 * Stripe functions are given (functions/src/routes.ts). 4 s is well above Stripe's usual answer
 * times; a slower answer is not lost, because the retry carries the same idempotency key. The SDK retries a timeout, a dropped connection, a 409 and a
 * 5xx with the same idempotency key; `patient` retries a 429, which the SDK does not.
 */
export const TIMEOUT_MS = 4_000;
const RETRIES = 2;

/** The SDK's connection options for an API URL: host, port and protocol, as the emulator needs them. */
export function connectionOptions(apiUrl: string | undefined): Stripe.StripeConfig {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443,
    protocol,
  };
}

/**
 * The form fields of the payout account form, by the Stripe parameter they are sent as, so a
 * refusal shows next to the field it concerns.
 */
const FIELD_OF_PARAM: [prefix: string, field: string, message: string][] = [
  ['individual[first_name]', 'first_name', 'Stripe did not accept this first name.'],
  ['individual[last_name]', 'last_name', 'Stripe did not accept this last name.'],
  ['individual[phone]', 'phone', 'Stripe did not accept this phone number.'],
  ['individual[email]', 'email', 'Stripe did not accept your e-mail address.'],
  ['email', 'email', 'Stripe did not accept your e-mail address.'],
  ['individual[address][line1]', 'street_address_1', 'Stripe did not accept this street address.'],
  ['individual[address][line2]', 'address_unit', 'Stripe did not accept this apartment or unit.'],
  ['individual[address][city]', 'city', 'Stripe did not accept this city.'],
  ['individual[address][state]', 'state', 'Stripe did not accept this state.'],
  ['individual[address][postal_code]', 'zipcode', 'Stripe did not accept this ZIP code.'],
  ['individual[address]', 'street_address_1', 'Stripe did not accept this address.'],
  ['individual[dob][day]', 'dob_day', 'Stripe did not accept this date of birth.'],
  ['individual[dob][month]', 'dob_month', 'Stripe did not accept this date of birth.'],
  ['individual[dob]', 'dob_year', 'Stripe did not accept this date of birth.'],
  ['individual[id_number]', 'tax_id', 'Stripe did not accept this tax ID. Check the nine digits.'],
  ['individual[ssn_last_4]', 'tax_id', 'Stripe did not accept this tax ID. Check the nine digits.'],
  [
    'business_profile[url]',
    'social_profile',
    'Stripe did not accept this link. Use the full address of a public profile.',
  ],
  ['tos_acceptance', 'tos_accepted', 'Accept the Terms of Service to continue.'],
  ['external_account', 'token', 'Stripe did not accept this card.'],
];

/**
 * Stripe's message when it reads as plain words (no `a[b]` parameter names, no echoed value after
 * a colon), else ours.
 */
const plain = (stripeMessage: string | undefined, ours: string): string =>
  stripeMessage && !/[[\]_:]/.test(stripeMessage) ? stripeMessage : ours;

/** Fields whose refusal is always said in our words, whatever Stripe wrote. */
const OUR_WORDS_ONLY = new Set(['tax_id']);

/**
 * An error the SDK raised for an answer of Stripe's (`StripeCardError`, `StripeInvalidRequestError`,
 * …), told by its `type` rather than by `instanceof`: the SDK's classes are not loaded until the
 * first call (see `loadSdk`).
 */
export function isStripeError(error: unknown): error is Stripe.errors.StripeError {
  if (!(error instanceof Error)) return false;
  const type = (error as { type?: unknown }).type;
  return typeof type === 'string' && /^Stripe[A-Za-z]*Error$/.test(type);
}

/**
 * The SDK, evaluated on first use rather than when the function's bundle loads: its module
 * evaluation (the Node platform layer and some 130 resource classes, of which we use six) was
 * most of what the Stripe-carrying functions' cold import cost over the others'. The bundle still
 * holds it (esbuild turns the `import()` into a lazy `require` of the same bundle).
 */
let sdk: Promise<typeof Stripe> | undefined;
const loadSdk = (): Promise<typeof Stripe> => (sdk ??= import('stripe').then((module) => module.default));

/**
 * The SDK's client, made on first use (the secret key comes from Secrets Manager at cold start, and
 * the SDK is loaded then: `loadSdk`), so a function that imports an adapter but never calls Stripe
 * makes none; a failed make is tried again by the next call. The API version is pinned: the shapes
 * the adapters read are this version's (the SDK's own), whatever the account's default. The SDK
 * retries a timeout, a dropped connection, a 409 and a 5xx RETRIES times.
 */
export function lazyStripeClient(
  settings: { secretKey: () => Promise<string>; apiUrl: () => string | undefined },
  timeoutMs: () => number,
): () => Promise<Stripe> {
  let client: Promise<Stripe> | undefined;
  return () => {
    client ??= Promise.all([settings.secretKey(), loadSdk()]).then(
      ([key, Stripe]) =>
        new Stripe(key, {
          ...connectionOptions(settings.apiUrl()),
          apiVersion: API_VERSION,
          maxNetworkRetries: RETRIES,
          timeout: timeoutMs(),
          appInfo: { name: 'reseller-portal' },
        }),
    );
    client.catch(() => (client = undefined));
    return client;
  };
}

/** Stripe did not answer (a timeout, a dropped connection, a 5xx or a 429 after the retries). */
export const unanswered = (error: Stripe.errors.StripeError) =>
  ['StripeConnectionError', 'StripeAPIError', 'StripeRateLimitError'].includes(error.type);
export const stripeUnavailable = (what: string) =>
  unavailable(`Stripe did not answer. Nothing was ${what} twice; try again in a minute.`, 60);

/** Retries a 429 (with our idempotency key, so at most one object is made). */
export async function patient<T>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= RETRIES || !isStripeError(error) || error.type !== 'StripeRateLimitError') throw error;
      await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt));
    }
  }
}

/**
 * A Stripe refusal as the member should read it: a 400 naming the field it concerns. Errors that
 * are not the member's to fix (authentication, connection, Stripe's own) stay errors: a 500 with a
 * reference, the details in the log (Stripe's errors never echo the parameters sent).
 */
export function toDomainError(error: unknown): unknown {
  if (!isStripeError(error)) return error;
  if (unanswered(error)) return stripeUnavailable('done');
  if (error.type === 'StripeCardError') {
    return badRequest(plain(error.message, 'Your card was declined. Try another debit card.'), {
      token: plain(error.message, 'Your card was declined. Try another debit card.'),
    });
  }
  if (error.type === 'StripeIdempotencyError') {
    return conflict(
      'Your payout account is already being set up with other details (another tab?). Reload the page to see it.',
    );
  }
  if (unreachable(error)) return new DomainError('not-found', ACCOUNT_GONE_MEMBER);
  if (error.type === 'StripeInvalidRequestError' && DEFAULT_CARD_KEPT.test(error.message)) {
    return conflict(CARD_CHANGED_AT_ONCE);
  }
  if (error.type === 'StripeInvalidRequestError') {
    if (error.code === 'resource_missing' && error.param !== 'external_account') {
      return new DomainError('not-found', 'No such payout account.');
    }
    const param = error.param ?? '';
    const match = FIELD_OF_PARAM.find(([prefix]) => param === prefix || param.startsWith(`${prefix}[`));
    if (match) {
      const [, field, ours] = match;
      const message = OUR_WORDS_ONLY.has(field) ? ours : plain(error.message, ours);
      return badRequest(message, { [field]: message });
    }
  }
  return error;
}

/**
 * Stripe's refusal to delete the account's default card ("You cannot delete the default external
 * account for your default currency…", an `invalid_request_error` with no code): another change of
 * the cards made another card the default meanwhile (two tabs replacing the card at once).
 */
const DEFAULT_CARD_KEPT = /cannot delete the default external account/i;
export const CARD_CHANGED_AT_ONCE =
  'Your debit card was changed somewhere else at the same moment (another tab?). Reload the page to see which card is kept, then change it again if needed.';

/**
 * Stripe's 403 (`permission_error`) for a connected account: the platform can no longer reach it
 * (disconnected, closed, or not ours). The member must set up payouts again.
 */
export const unreachable = (error: Stripe.errors.StripeError) =>
  error.type === 'StripePermissionError' || error.statusCode === 403;
export const ACCOUNT_GONE_MEMBER =
  'Your payout account can no longer be reached at Stripe (it was closed or disconnected). Set up payouts again to be paid.';
export const ACCOUNT_GONE_ADMIN =
  "The member's payout account can no longer be reached at Stripe (it was closed or disconnected): ask the member to set up payouts again.";
export const CANNOT_TAKE_TRANSFERS =
  "The member's payout account cannot receive transfers yet: Stripe still needs some of their details or is still verifying them.";
