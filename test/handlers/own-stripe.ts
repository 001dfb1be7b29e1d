import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Stripe from 'stripe';
import {
  signature,
  startStripeEmulator,
  type StripeEmulator,
  type StripeEmulatorOptions,
} from '../../infra/local/stripe';
import { sdk } from '../../infra/local/stripe/testing';
import type { ApiHandler } from '../../infra/local/api-event';
import { call, type CallResult } from './helpers';

/** A webhook delivery as the test file's endpoint received it. */
export interface Delivery {
  /** `/api/stripeWebhook` (the platform's events) or `/api/stripeConnectWebhook` (the connected accounts'). */
  path: string;
  body: Buffer;
  /** The `Stripe-Signature` header. */
  signature: string;
  contentType: string;
}

export interface OwnStripe {
  readonly emulator: StripeEmulator;
  /** The real `stripe` SDK pointed at it (on the same port after `wipe`). */
  readonly stripe: Stripe;
  /** The emulator's folder (its `state.json`), removed by `wipe` and `stop`. */
  readonly dataDir: string;
  /**
   * Stops the emulator, removes its folder and starts it again on the same port with no state, as
   * removing `.local/stripe/` between two `npm start`s would.
   */
  wipe(): Promise<void>;
  /** Stops the emulator and the endpoint, and removes the emulator's folder. */
  stop(): Promise<void>;
}

/**
 * A Stripe emulator of the test file's own (its state in a temporary folder named after `name`),
 * made the functions' Stripe: STRIPE_API_URL, and with `secrets` the two endpoints' signing
 * secrets. With `receive`, the two webhook endpoints a Connect platform has (the platform's
 * `/api/stripeWebhook`, Connect's `/api/stripeConnectWebhook`) listen on 127.0.0.1, and each
 * delivery is answered with the status and body `receive` answers. The functions are imported by
 * the test file, not here, so that a file can set their environment before it loads them.
 */
export async function ownStripe(
  name: string,
  options: {
    secrets?: { account: string; connect: string };
    receive?: (delivery: Delivery) => Promise<{ status: number; body: unknown }>;
  } & Omit<StripeEmulatorOptions, 'dataDir' | 'webhooks' | 'webhookUrl' | 'webhookSecret' | 'log'> = {},
): Promise<OwnStripe> {
  const { secrets, receive, ...given } = options;
  // The platform as the portal needs it set up (manual payouts, decision 0280), unless the test says otherwise.
  const settings = { platformPayouts: 'manual' as const, ...given };
  const dataDir = mkdtempSync(join(tmpdir(), `${name}-`));
  let endpoint: Server | undefined;
  let webhooks: StripeEmulatorOptions['webhooks'];
  if (receive && secrets) {
    endpoint = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        void receive({
          path: request.url ?? '/api/stripeWebhook',
          body: Buffer.concat(chunks),
          signature: String(request.headers['stripe-signature']),
          contentType: String(request.headers['content-type']),
        }).then((answer) => response.writeHead(answer.status).end(JSON.stringify(answer.body)));
      });
    });
    const listening = endpoint;
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
    const { port } = listening.address() as AddressInfo;
    webhooks = {
      account: { url: `http://127.0.0.1:${port}/api/stripeWebhook`, secret: secrets.account },
      connect: { url: `http://127.0.0.1:${port}/api/stripeConnectWebhook`, secret: secrets.connect },
    };
  }
  // The functions' key (setup.ts) is the one this emulator accepts, as the shared one does.
  const secretKey = process.env.STRIPE_SECRET_KEY;
  let emulator = await startStripeEmulator({ ...settings, dataDir, secretKey, webhooks, log: () => undefined });
  process.env.STRIPE_API_URL = emulator.url;
  if (secrets) {
    process.env.STRIPE_WEBHOOK_SECRET = secrets.account;
    process.env.STRIPE_CONNECT_WEBHOOK_SECRET = secrets.connect;
  }
  return {
    get emulator() {
      return emulator;
    },
    stripe: sdk(emulator.port, emulator.secretKey),
    dataDir,
    async wipe() {
      const { port } = emulator;
      await emulator.stop();
      rmSync(dataDir, { recursive: true, force: true });
      emulator = await startStripeEmulator({ ...settings, dataDir, port, secretKey, webhooks, log: () => undefined });
    },
    async stop() {
      await emulator.stop();
      await new Promise<void>((resolve) => (endpoint ? endpoint.close(() => resolve()) : resolve()));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Hands a delivery to the handler of the endpoint Stripe sends its event to: a connected account's
 * event (it names the account) to Connect's, the platform's own to the platform's.
 */
export function toEndpointOf(webhook: ApiHandler, connectWebhook: ApiHandler) {
  return (body: string | Buffer, signature: string): Promise<CallResult> => {
    const connect = Boolean((JSON.parse(body.toString()) as { account?: string }).account);
    return call(connect ? connectWebhook : webhook, {
      rawBody: body,
      headers: { 'stripe-signature': signature },
      path: connect ? '/api/stripeConnectWebhook' : '/api/stripeWebhook',
    });
  };
}

/**
 * Funds the platform's available balance, which pays the transfers: a card payment whose funds are
 * available at once (pm_card_bypassPending; a card payment's funds are otherwise pending for days).
 */
export const fundPlatform = (stripe: Stripe, amountCents: number) =>
  stripe.paymentIntents.create({
    amount: amountCents,
    currency: 'usd',
    payment_method: 'pm_card_bypassPending',
    confirm: true,
  });

/** Posts `event` to a webhook handler at `path`, freshly signed with `secret`: a delivery or a redelivery. */
export function deliverSigned(handler: ApiHandler, path: string, secret: string, event: unknown): Promise<CallResult> {
  const payload = JSON.stringify(event);
  return call(handler, {
    rawBody: payload,
    headers: { 'stripe-signature': signature(payload, secret, Math.floor(Date.now() / 1000)) },
    path,
  });
}

/** The emulator's platform events of a type about one payment intent (or the intent itself), oldest first. */
export async function eventsOfPayment(stripe: Stripe, type: string, paymentIntentId: string): Promise<Stripe.Event[]> {
  const found: Stripe.Event[] = [];
  for await (const event of stripe.events.list({ type, limit: 100 })) {
    const object = event.data.object as { payment_intent?: string | null; id: string };
    if (object.payment_intent === paymentIntentId || object.id === paymentIntentId) found.push(event);
  }
  return found.reverse();
}
