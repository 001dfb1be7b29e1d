import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONNECT_NOT_SIGNED_UP, startStripeEmulator, type StripeEmulator } from './index';
import { customAccount, sdk, caught } from './testing';

/** The platform's own account and webhook endpoints, on an emulator whose platform has not signed up for Connect. */
let dataDir: string;
let emulator: StripeEmulator;
let stripe: Stripe;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'stripe-platform-'));
  emulator = await startStripeEmulator({
    dataDir,
    log: () => undefined,
    platformConnect: false,
    platformPayouts: 'manual',
  });
  stripe = sdk(emulator.port, emulator.secretKey);
});

afterAll(async () => {
  await emulator.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a platform that has not signed up for Connect', () => {
  it('is refused connected accounts as Stripe refuses them, and lists none', async () => {
    const refused = await caught(stripe.accounts.create(customAccount));
    expect(refused).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(refused.statusCode).toBe(400);
    expect(refused.message).toBe(CONNECT_NOT_SIGNED_UP);
    expect((await stripe.accounts.list({ limit: 1 })).data).toEqual([]);
  });

  it('answers its own account with the payout schedule its Dashboard set', async () => {
    const platform = await stripe.accounts.retrieveCurrent();
    expect(platform.settings?.payouts?.schedule).toEqual({ interval: 'manual', delay_days: 2 });
  });
});

describe('webhook endpoints', () => {
  it('keeps the API version an endpoint was made with, and takes the SDK’s newer events', async () => {
    const made = await stripe.webhookEndpoints.create({
      url: 'https://portal.example.com/api/stripeWebhook',
      // refund.failed: in the SDK's EnabledEvent, not in the 2024-04-10 document.
      enabled_events: ['refund.updated', 'refund.failed'],
      connect: true,
      api_version: Stripe.API_VERSION as Stripe.WebhookEndpointCreateParams.ApiVersion,
    });
    expect((await stripe.webhookEndpoints.retrieve(made.id)).api_version).toBe(Stripe.API_VERSION);
  });

  it('refuses an endpoint without a URL or events, or with an event Stripe does not send', async () => {
    const noEvents = await caught(
      stripe.webhookEndpoints.create({ url: 'https://portal.example.com/a', enabled_events: [] }),
    );
    expect(noEvents.statusCode).toBe(400);
    expect(noEvents.message).toBe('Missing required param: enabled_events.');
    const unknown = await caught(
      stripe.webhookEndpoints.create({
        url: 'https://portal.example.com/a',
        enabled_events: ['payout.paid', 'payout.exploded' as Stripe.WebhookEndpointCreateParams.EnabledEvent],
      }),
    );
    expect(unknown.statusCode).toBe(400);
    expect(unknown.param).toBe('enabled_events[1]');
    expect(unknown.message).toMatch(/^Invalid enabled_events\[1\]: must be one of /);
  });
});
