import type Stripe from 'stripe';
import { StripeApiError, invalid, missing, noSuch } from './errors';
import { stripeId } from './ids';
import { stripeOpenApiDocument, type Schema } from './oas';
import { mergeMetadata, optionalString, page, type Params } from './params';
import type { State, StoredEndpoint } from './store';

/**
 * A platform that has not signed up for Connect, and the platform's webhook endpoints
 * (`/v1/webhook_endpoints`), which `npm run deploy:check` reads.
 */

/**
 * Stripe's answer to making a connected account before the platform signed up for Connect
 * (Dashboard → Connect → Get started; docs.stripe.com/api/accounts/create: "you'll first need to
 * register your platform"); the list of connected accounts is then empty.
 */
export const CONNECT_NOT_SIGNED_UP =
  "You can only create new accounts if you've signed up for Connect, which you can learn how to do at https://stripe.com/docs/connect.";

export function notSignedUpForConnect(): StripeApiError {
  return new StripeApiError(400, 'invalid_request_error', CONNECT_NOT_SIGNED_UP);
}

/**
 * The events the SDK's types take in `enabled_events` (`WebhookEndpointCreateParams.EnabledEvent`,
 * API version 2026-10-28.endive) that the 2024-04-10 document does not list: newer events.
 */
const SDK_ONLY_EVENTS = [
  'apps.install.created',
  'apps.install.deleted',
  'apps.install.updated',
  'balance_settings.updated',
  'billing.alert.triggered',
  'billing.credit_balance_transaction.created',
  'billing.credit_grant.created',
  'billing.credit_grant.updated',
  'billing.meter.created',
  'billing.meter.deactivated',
  'billing.meter.reactivated',
  'billing.meter.updated',
  'financial_connections.account.account_numbers_updated',
  'financial_connections.account.expected_deactivation_date_updated',
  'financial_connections.account.supported_payment_method_types_updated',
  'financial_connections.account.upcoming_account_number_expiry',
  'financial_connections.account.upcoming_deactivation',
  'financial_connections.authorization.expected_deactivation_date_updated',
  'financial_connections.authorization.upcoming_deactivation',
  'invoice.overdue',
  'invoice.overpaid',
  'invoice.payment_attempt_required',
  'invoice.will_be_due',
  'invoice_payment.paid',
  'issuing_dispute.funds_rescinded',
  'issuing_personalization_design.activated',
  'issuing_personalization_design.deactivated',
  'issuing_personalization_design.rejected',
  'issuing_personalization_design.updated',
  'issuing_transaction.purchase_details_receipt_updated',
  'refund.failed',
  'reserve.hold.created',
  'reserve.hold.updated',
  'reserve.plan.created',
  'reserve.plan.disabled',
  'reserve.plan.expired',
  'reserve.plan.updated',
  'reserve.release.created',
  'terminal.reader.action_updated',
  'three_d_secure.authentication.canceled',
  'three_d_secure.authentication.challenge_started',
  'three_d_secure.authentication.errored',
  'three_d_secure.authentication.failed',
  'three_d_secure.authentication.requires_challenge',
  'three_d_secure.authentication.requires_submission',
  'three_d_secure.authentication.succeeded',
] satisfies Stripe.WebhookEndpointCreateParams.EnabledEvent[];

/** The event names the 2024-04-10 document takes in `enabled_events` (and `*`), and the SDK's newer ones. */
let knownEvents: Set<string> | undefined;
function eventNames(): Set<string> {
  if (knownEvents) return knownEvents;
  const body = stripeOpenApiDocument().paths['/v1/webhook_endpoints']?.post?.requestBody;
  const schema = body?.content['application/x-www-form-urlencoded']?.schema as
    { properties?: { enabled_events?: { items?: Schema } } } | undefined;
  knownEvents = new Set([
    ...((schema?.properties?.enabled_events?.items?.enum as string[] | undefined) ?? []),
    ...SDK_ONLY_EVENTS,
  ]);
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
