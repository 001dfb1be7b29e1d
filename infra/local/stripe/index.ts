import type { AddressInfo } from 'node:net';
import { Emulator } from './emulator';
import type { StripeFaults } from './faults';
import { createEmulatorServer, type Exchange } from './server';
import { Store } from './store';
import { WebhookSender } from './webhooks';

export { API_VERSION, FAIL_PAYOUT_METADATA } from './emulator';
export { PAYOUT_FAILING_DEBIT_CARD } from './cards';
export type { Exchange } from './server';
export { signature } from './webhooks';
export { PUBLISHABLE_KEY_REFUSED } from './server';

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
   * The publishable key (`pk_test_…`) paired with the secret keys: accepted, as at Stripe, only
   * for the calls a browser makes (card tokens, confirming a payment intent). Without it no
   * publishable key is accepted.
   */
  publishableKey?: string;
  /** Waits before each retry of an undelivered event; defaults to 1 s, 5 s, 25 s. */
  webhookRetryDelaysMs?: number[];
  log?: (line: string) => void;
  /** Sees every request and its answer (the OpenAPI conformance test records them). */
  onExchange?: (exchange: Exchange) => void;
  /** Test only: the faults to throw (`new StripeFaults()` from testing.ts, then `inject(...)`). */
  faults?: StripeFaults;
}

export interface StripeEmulator {
  /** `http://127.0.0.1:<port>` */
  url: string;
  host: string;
  port: number;
  /** Resolves when every payout has settled and every event is delivered (or given up). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A local stand-in for the parts of Stripe's API the payouts use (Connect custom accounts, card
 * tokens, debit-card external accounts, balance, transfers, payouts, payment intents, events),
 * on 127.0.0.1. Point the `stripe` SDK at it with `{ host: '127.0.0.1', port, protocol: 'http' }`.
 */
export async function startStripeEmulator(options: StripeEmulatorOptions): Promise<StripeEmulator> {
  if (options.webhookUrl && !options.webhookSecret) throw new Error('webhookSecret is needed with webhookUrl');
  const log = options.log ?? ((line: string) => console.warn(line));
  const store = new Store(options.dataDir);
  const webhooks =
    options.webhookUrl && options.webhookSecret
      ? new WebhookSender(
          {
            url: options.webhookUrl,
            secret: options.webhookSecret,
            retryDelaysMs: options.webhookRetryDelaysMs ?? [1_000, 5_000, 25_000],
          },
          log,
        )
      : undefined;
  const pending = new Set<Promise<void>>();
  // After the answer is written (setImmediate runs once the current I/O callbacks are done).
  const later = (work: () => void) => {
    const task = new Promise<void>((resolve) => setImmediate(resolve)).then(work);
    pending.add(task);
    void task.finally(() => pending.delete(task));
  };
  const emulator = new Emulator(store, webhooks, later);
  const server = createEmulatorServer(emulator, store, {
    onExchange: options.onExchange,
    publishableKey: options.publishableKey,
    faults: options.faults,
  });
  const host = '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const idle = async () => {
    while (pending.size) await Promise.all([...pending]);
    await webhooks?.idle();
  };
  return {
    url: `http://${host}:${port}`,
    host,
    port,
    idle,
    stop: async () => {
      await Promise.all([...pending]);
      webhooks?.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      store.save();
    },
  };
}
