import type Stripe from 'stripe';
import { StripeApiError, invalid, missing, noSuch } from './errors';
import { stripeId } from './ids';
import { stripeOpenApiDocument, type Schema } from './oas';
import { mergeMetadata, optionalString, page, type Params } from './params';
import type { State } from './store';

/**
 * The platform's own account as `GET /v1/account` answers it, and its webhook endpoints
 * (`/v1/webhook_endpoints`), which `npm run deploy:check` reads.
 */

/** How the platform account is set up at Stripe (a test sets what the Dashboard would). */
export interface PlatformSettings {
  /**
   * Signed up for Connect (Dashboard → Connect → Get started). Without it Stripe refuses to make
   * connected accounts: "You can only create new accounts if you've signed up for Connect, which
   * you can learn how to do at https://stripe.com/docs/connect." (docs.stripe.com/api/accounts/create:
   * "you'll first need to register your platform"); the list of connected accounts is then empty.
   */
  connect: boolean;
  /**
   * The platform's own payout schedule (Dashboard → Settings → Payouts; docs.stripe.com/payouts
   * "Payout schedule"): `daily` with a 2-day delay, Stripe's default for a new US account, or `manual`.
   */
  payouts: 'daily' | 'manual';
}

export const DEFAULT_PLATFORM: PlatformSettings = {
  connect: true,
  payouts: 'daily',
};

/** Stripe's answer to making a connected account before the platform signed up for Connect. */
export const CONNECT_NOT_SIGNED_UP =
  "You can only create new accounts if you've signed up for Connect, which you can learn how to do at https://stripe.com/docs/connect.";

export function notSignedUpForConnect(): StripeApiError {
  return new StripeApiError(400, 'invalid_request_error', CONNECT_NOT_SIGNED_UP);
}

/** The platform's own account (`GET /v1/account` without `Stripe-Account`), a US account of its own (`type: standard`). */
export function platformAccount(state: State, settings: PlatformSettings, now: number): Stripe.Account {
  state.platformAccountId ??= stripeId('acct_', 16);
  return {
    id: state.platformAccountId,
    object: 'account',
    type: 'standard',
    business_type: 'company',
    charges_enabled: true,
    payouts_enabled: true,
    details_submitted: true,
    country: 'US',
    default_currency: 'usd',
    email: null,
    created: state.platformCreated ?? (state.platformCreated = now),
    metadata: {},
    capabilities: { card_payments: 'active', transfers: 'active' },
    controller: { type: 'account', is_controller: true } as Stripe.Account.Controller,
    settings: {
      branding: { icon: null, logo: null, primary_color: null, secondary_color: null },
      card_payments: { decline_on: { avs_failure: false, cvc_failure: false }, statement_descriptor_prefix: null },
      dashboard: { display_name: null, timezone: 'Etc/UTC' },
      payments: { statement_descriptor: null },
      payouts: {
        debit_negative_balances: true,
        schedule: { delay_days: 2, interval: settings.payouts },
        statement_descriptor: null,
      },
    } as Stripe.Account.Settings,
  } as Stripe.Account;
}

/** The event names the 2024-04-10 document takes in `enabled_events` (and `*`). */
let knownEvents: Set<string> | undefined;
function eventNames(): Set<string> {
  if (knownEvents) return knownEvents;
  const body = stripeOpenApiDocument().paths['/v1/webhook_endpoints']?.post?.requestBody;
  const schema = body?.content['application/x-www-form-urlencoded']?.schema as
    { properties?: { enabled_events?: { items?: Schema } } } | undefined;
  knownEvents = new Set((schema?.properties?.enabled_events?.items?.enum as string[] | undefined) ?? []);
  return knownEvents;
}

function enabledEvents(params: Params): string[] {
  const value = params.enabled_events;
  const list = Array.isArray(value) ? value : value && typeof value === 'object' ? Object.values(value) : undefined;
  if (!list || list.length === 0) throw missing('enabled_events');
  const names = eventNames();
  return list.map((event, index) => {
    if (typeof event !== 'string' || !names.has(event)) {
      throw invalid(
        `enabled_events[${index}]`,
        `Invalid enabled_events[${index}]: must be one of ${[...names].join(', ')}`,
      );
    }
    return event;
  });
}

function endpointUrl(params: Params, required: boolean): string | undefined {
  const url = optionalString(params, 'url');
  if (url === undefined) {
    if (required) throw missing('url');
    return undefined;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid('url', 'Invalid URL: URL must be formatted as https://example.com/path', 'url_invalid');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw invalid('url', 'Invalid URL: URL must be formatted as https://example.com/path', 'url_invalid');
  }
  return url;
}

/** The endpoints as the state keeps them: Stripe's object, and whether it listens to connected accounts (not in the object). */
export type StoredEndpoint = { endpoint: Stripe.WebhookEndpoint; connect: boolean };

/** `POST /v1/webhook_endpoints`: the signing secret is in this answer only (docs.stripe.com/api/webhook_endpoints/create). */
export function createWebhookEndpoint(state: State, params: Params, now: number): Stripe.WebhookEndpoint {
  const url = endpointUrl(params, true)!;
  const events = enabledEvents(params);
  const apiVersion = optionalString(params, 'api_version');
  const endpoint: Stripe.WebhookEndpoint = {
    id: stripeId('we_'),
    object: 'webhook_endpoint',
    api_version: apiVersion ?? null,
    application: null,
    created: now,
    description: optionalString(params, 'description') ?? null,
    enabled_events: events,
    livemode: false,
    metadata: mergeMetadata({}, params),
    status: 'enabled',
    url,
  };
  const endpoints = (state.webhookEndpoints ??= {});
  endpoints[endpoint.id] = { endpoint, connect: params.connect === 'true' || params.connect === true };
  return { ...endpoint, secret: `whsec_${stripeId('', 32)}` };
}

function stored(state: State, id: string): StoredEndpoint {
  const found = state.webhookEndpoints?.[id];
  if (!found) throw noSuch('webhook endpoint', id, 'webhook_endpoint');
  return found;
}

export function retrieveWebhookEndpoint(state: State, id: string): Stripe.WebhookEndpoint {
  return stored(state, id).endpoint;
}

/** `POST /v1/webhook_endpoints/:id`: url, enabled_events, description, metadata, `disabled`. */
export function updateWebhookEndpoint(state: State, id: string, params: Params): Stripe.WebhookEndpoint {
  const { endpoint } = stored(state, id);
  const url = endpointUrl(params, false);
  if (url !== undefined) endpoint.url = url;
  if (params.enabled_events !== undefined) endpoint.enabled_events = enabledEvents(params);
  const description = optionalString(params, 'description');
  if (description !== undefined) endpoint.description = description || null;
  if (params.disabled !== undefined) endpoint.status = params.disabled === 'true' ? 'disabled' : 'enabled';
  endpoint.metadata = mergeMetadata(endpoint.metadata, params);
  return endpoint;
}

export function deleteWebhookEndpoint(state: State, id: string): Stripe.DeletedWebhookEndpoint {
  stored(state, id);
  delete state.webhookEndpoints![id];
  return { id, object: 'webhook_endpoint', deleted: true };
}

/** `GET /v1/webhook_endpoints`, newest first. */
export function listWebhookEndpoints(state: State, params: Params) {
  const endpoints = Object.values(state.webhookEndpoints ?? {})
    .map(({ endpoint }) => endpoint)
    .map((endpoint, index) => ({ endpoint, index }))
    .sort((a, b) => b.endpoint.created - a.endpoint.created || b.index - a.index)
    .map(({ endpoint }) => endpoint);
  return page(endpoints, params, '/v1/webhook_endpoints');
}
