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
 * Posts events to one endpoint: each event's first attempt in order (or, shuffled, each moment's
 * events in another order), one at a time. An event that is not taken (non-2xx answer or no
 * answer) is retried after the given waits **on its own**: Stripe keeps sending the endpoint's
 * later events meanwhile (docs.stripe.com/webhooks, "Retry behavior"; "Event ordering": Stripe
 * does not guarantee delivery in the order events happened). `idle()` resolves when every event
 * is delivered or given up.
 */
export class WebhookSender {
  private queue: Promise<void> = Promise.resolve();
  private stopped = false;
  private batch: { event: Stripe.Event; onDelivered: () => void }[] = [];
  /** Events between their failed first attempt and their delivery (or their last retry). */
  private retrying = new Set<Promise<void>>();

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

  async idle(): Promise<void> {
    await this.queue;
    while (this.retrying.size) {
      await Promise.all([...this.retrying]);
      await this.queue;
    }
  }

  stop(): void {
    this.stopped = true;
    this.waiter.wake();
  }

  /** The first attempt; a failed one leaves the event to its own retries and frees the queue for the next event. */
  private async deliver(event: Stripe.Event, onDelivered: () => void): Promise<void> {
    const url = typeof this.settings.url === 'function' ? this.settings.url() : this.settings.url;
    if (url === undefined || this.stopped) return;
    const payload = JSON.stringify(event, null, 2);
    // Stripe schedules each retry from the failed attempt's time.
    const sentAt = this.waiter.time();
    if (await this.attempt(url, event, payload, 0)) {
      onDelivered();
      return;
    }
    if (this.settings.retryDelaysMs.length === 0) return;
    const retries = this.retry(url, event, payload, onDelivered, sentAt);
    this.retrying.add(retries);
    void retries.finally(() => this.retrying.delete(retries));
  }

  private async retry(
    url: string,
    event: Stripe.Event,
    payload: string,
    onDelivered: () => void,
    firstSentAt: number,
  ): Promise<void> {
    const delays = this.settings.retryDelaysMs;
    let sentAt = firstSentAt;
    for (let attempt = 1; attempt <= delays.length && !this.stopped; attempt++) {
      await this.waiter.wait(delays[attempt - 1] ?? 0, () => this.stopped, sentAt);
      if (this.stopped) return;
      sentAt = this.waiter.time();
      if (await this.attempt(url, event, payload, attempt)) {
        onDelivered();
        return;
      }
    }
  }

  /** One POST of the event; true when the endpoint took it (2xx). */
  private async attempt(url: string, event: Stripe.Event, payload: string, attempt: number): Promise<boolean> {
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
      if (response.ok) return true;
      this.log(`Stripe emulator: webhook ${event.type} answered ${response.status} (attempt ${attempt + 1})`);
    } catch (error) {
      this.log(
        `Stripe emulator: webhook ${event.type} not delivered (attempt ${attempt + 1}): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    return false;
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
