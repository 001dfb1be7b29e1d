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

export interface WebhookSettings {
  /**
   * The endpoint, or a function naming it at delivery (a portal that listens after the emulator
   * starts); `undefined` from it means no endpoint yet: the event is only listed, not sent.
   */
  url: string | (() => string | undefined);
  secret: string;
  /** Waits between attempts; one attempt more than there are waits. */
  retryDelaysMs: number[];
}

/**
 * Posts events to one endpoint, one at a time and in order, retrying each (non-2xx answer or no
 * answer) after the given waits. `idle()` resolves when every queued event is delivered or given up.
 */
export class WebhookSender {
  private queue: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly settings: WebhookSettings,
    private readonly log: (line: string) => void,
  ) {}

  send(event: Stripe.Event, onDelivered: () => void): void {
    this.queue = this.queue.then(() => this.deliver(event, onDelivered));
  }

  idle(): Promise<void> {
    return this.queue;
  }

  stop(): void {
    this.stopped = true;
  }

  private async deliver(event: Stripe.Event, onDelivered: () => void): Promise<void> {
    const url = typeof this.settings.url === 'function' ? this.settings.url() : this.settings.url;
    if (url === undefined) return;
    const payload = JSON.stringify(event, null, 2);
    const delays = this.settings.retryDelaysMs;
    for (let attempt = 0; attempt <= delays.length && !this.stopped; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, delays[attempt - 1]));
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json; charset=utf-8',
            'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
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
