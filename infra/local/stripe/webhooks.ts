import { createHmac } from 'node:crypto';
import type Stripe from 'stripe';

/**
 * The `Stripe-Signature` header as Stripe sends it: `t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<payload>" keyed with the endpoint's signing secret>`.
 */
export function signature(payload: string, secret: string, timestamp: number): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

/**
 * Stripe's retries of an undelivered event in test mode: "three times over a few hours"
 * (docs.stripe.com/webhooks, "Retry behavior"); live mode keeps trying for three days. The
 * emulator waits 1 h, then 2 h, then 4 h after each failed attempt (decision 0041).
 */
export const STRIPE_TEST_MODE_RETRY_DELAYS_MS = [3_600_000, 7_200_000, 14_400_000];

export interface WebhookSettings {
  /**
   * The endpoint, or a function naming it at delivery (a portal that listens after the emulator
   * starts); `undefined` from it means no endpoint yet: the event is only listed, not sent.
   */
  url: string | (() => string | undefined);
  secret: string;
  /** Waits between attempts; one attempt more than there are waits. */
  retryDelaysMs: number[];
  /** `shuffled` (tests only): the events of one moment are delivered in another order than they happened. */
  deliveryOrder?: 'created' | 'shuffled';
}

/**
 * Waits `ms` of real time, or less when the emulator clock is moved past the due time; resolves
 * at once when stopped. `wake` is called by the clock's `advance`.
 */
export class Waiter {
  private sleepers = new Set<() => void>();
  constructor(private readonly now: () => number) {}

  /** The clock's time now (ms). */
  time(): number {
    return this.now();
  }

  /**
   * Resolves once `ms` have passed on the clock since `from` (default: now). A wait that starts
   * after the clock already moved past its due time (a retry scheduled from its attempt's time,
   * registered after a test advanced the clock) resolves at once.
   */
  wait(ms: number, stopped: () => boolean, from: number = this.now()): Promise<void> {
    const due = from + ms;
    return new Promise((resolve) => {
      const check = () => {
        if (stopped() || this.now() >= due) {
          clearTimeout(timer);
          this.sleepers.delete(check);
          resolve();
        }
      };
      const timer = setTimeout(check, Math.max(0, due - this.now()));
      this.sleepers.add(check);
      check();
    });
  }

  /** Re-checks every sleeper (the clock moved, or the sender stopped). */
  wake(): void {
    for (const sleeper of [...this.sleepers]) sleeper();
  }
}

/**
 * Posts events to one endpoint, one at a time and in order (or, shuffled, each moment's events in
 * another order), retrying each (non-2xx answer or no answer) after the given waits. `idle()`
 * resolves when every queued event is delivered or given up.
 */
export class WebhookSender {
  private queue: Promise<void> = Promise.resolve();
  private stopped = false;
  private batch: { event: Stripe.Event; onDelivered: () => void }[] = [];

  constructor(
    private readonly settings: WebhookSettings,
    private readonly log: (line: string) => void,
    private readonly waiter: Waiter = new Waiter(() => Date.now()),
  ) {}

  send(event: Stripe.Event, onDelivered: () => void): void {
    if (this.settings.deliveryOrder !== 'shuffled') {
      this.queue = this.queue.then(() => this.deliver(event, onDelivered));
      return;
    }
    this.batch.push({ event, onDelivered });
    if (this.batch.length > 1) return;
    // The events of this moment (one request's, or one clock step's) go out together, reordered.
    this.queue = this.queue
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(async () => {
        const taken = shuffled(this.batch.splice(0));
        for (const { event: next, onDelivered: done } of taken) await this.deliver(next, done);
      });
  }

  idle(): Promise<void> {
    return this.queue;
  }

  stop(): void {
    this.stopped = true;
    this.waiter.wake();
  }

  private async deliver(event: Stripe.Event, onDelivered: () => void): Promise<void> {
    const url = typeof this.settings.url === 'function' ? this.settings.url() : this.settings.url;
    if (url === undefined) return;
    const payload = JSON.stringify(event, null, 2);
    const delays = this.settings.retryDelaysMs;
    // Stripe schedules each retry from the failed attempt's time.
    let sentAt = this.waiter.time();
    for (let attempt = 0; attempt <= delays.length && !this.stopped; attempt++) {
      if (attempt > 0) await this.waiter.wait(delays[attempt - 1] ?? 0, () => this.stopped, sentAt);
      if (this.stopped) return;
      sentAt = this.waiter.time();
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json; charset=utf-8',
            'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
            // Real time: the SDK checks the signature's age against the receiver's own clock.
            'Stripe-Signature': signature(payload, this.settings.secret, Math.floor(Date.now() / 1000)),
          },
          body: payload,
          signal: AbortSignal.timeout(10_000),
        });
        await response.arrayBuffer().catch(() => undefined);
        if (response.ok) {
          onDelivered();
          return;
        }
        this.log(`Stripe emulator: webhook ${event.type} answered ${response.status} (attempt ${attempt + 1})`);
      } catch (error) {
        this.log(
          `Stripe emulator: webhook ${event.type} not delivered (attempt ${attempt + 1}): ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  }
}

/** A random order that differs from the given one whenever there are two items or more. */
function shuffled<T>(items: T[]): T[] {
  const out = [...items];
  for (let index = out.length - 1; index > 0; index--) {
    const other = Math.floor(Math.random() * (index + 1));
    [out[index], out[other]] = [out[other]!, out[index]!];
  }
  if (out.length > 1 && out.every((item, index) => item === items[index])) out.push(out.shift()!);
  return out;
}
