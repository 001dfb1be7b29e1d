import type { PaymentGateway } from './payment-gateway';

/**
 * The checkouts' payment intents not yet paid, kept per product (one item per intent, in the
 * product's partition of the table, with a TTL): a ban or a withdrawal finds them by one Query and
 * cancels them at Stripe, so no customer pays for a product after it left the catalogue. The sale
 * deletes its intent's item in its own transaction; a cancelled one is deleted here.
 */
export interface OpenIntentStore {
  /**
   * Records an intent as open, in one transaction with a check that the product is still sold
   * (approved, or in review with approved values): false when it no longer is (banned or withdrawn
   * since the intent was made), and nothing is recorded.
   */
  track(productId: string, paymentIntentId: string, expiresAtSeconds: number): Promise<boolean>;
  /** A page of a product's open intents (their ids), oldest first; `next` continues it. */
  page(
    productId: string,
    limit: number,
    cursor: Record<string, unknown> | undefined,
  ): Promise<{ ids: string[]; next: Record<string, unknown> | undefined }>;
  /** The intent is no longer open (cancelled, or paid). */
  forget(productId: string, paymentIntentId: string): Promise<void>;
}

/**
 * How long an open intent is kept: a checkout left for 30 days is dropped from the product's
 * partition, which stays small. Should such a checkout still be paid after a ban, the sale records
 * it flagged for the admin (orders/abuse.ts). docs/decisions/0201.
 */
export const OPEN_INTENT_DAYS = 30;

/** Stripe's key of the cancel of one intent: a retry (of the ban, of a batch) sends the same request. */
export const cancelIntentKey = (paymentIntentId: string): string => `portal:cancel-intent:${paymentIntentId}`;

export interface CancelDeps {
  intents: OpenIntentStore;
  gateway: Pick<PaymentGateway, 'cancelPaymentIntent'>;
  /** Epoch ms (the clock). */
  now: () => number;
}

/** How much of an admin's ban one call may spend on Stripe: docs/decisions/0201. */
export interface CancelBudget {
  /** Intents cancelled side by side. */
  concurrency: number;
  /** Intents read per Query page. */
  pageSize: number;
  /** At most this many intents per call. */
  maxIntents: number;
  /** No new batch starts after this much time (ms) from the start. */
  maxMs: number;
}

export const CANCEL_BUDGET: CancelBudget = { concurrency: 5, pageSize: 25, maxIntents: 200, maxMs: 8_000 };

export interface CancelReport {
  /** Cancelled at Stripe by this call (or found cancelled already). */
  cancelled: number;
  /** Found paid: their sales are recorded, flagged (orders/abuse.ts). */
  paid: number;
  /** Read but left open: Stripe failed, or the budget ran out; their items are kept. */
  notCancelled: number;
  /** The budget ran out before the product's partition was read to its end. */
  more: boolean;
}

/**
 * Cancels the open intents of a product that was just banned or withdrawn, in bounded batches
 * (CANCEL_BUDGET): a page of the product's partition at a time, a few Stripe calls side by side,
 * each with its own idempotency key, the item deleted once Stripe answered canceled or succeeded.
 * A failure keeps its item and is counted, never thrown: the ban stands.
 */
export async function cancelOpenIntents(
  deps: CancelDeps,
  productId: string,
  budget: CancelBudget = CANCEL_BUDGET,
): Promise<CancelReport> {
  const report: CancelReport = { cancelled: 0, paid: 0, notCancelled: 0, more: false };
  const started = deps.now();
  let cursor: Record<string, unknown> | undefined;
  let seen = 0;
  do {
    let page: Awaited<ReturnType<OpenIntentStore['page']>>;
    try {
      page = await deps.intents.page(productId, budget.pageSize, cursor);
    } catch {
      // The table did not answer: the ban stands, and what is left open is flagged if it is paid.
      report.more = true;
      return report;
    }
    cursor = page.next;
    for (let start = 0; start < page.ids.length; start += budget.concurrency) {
      const batch = page.ids.slice(start, start + budget.concurrency);
      if (seen >= budget.maxIntents || deps.now() - started > budget.maxMs) {
        report.notCancelled += page.ids.length - start;
        report.more = cursor !== undefined;
        return report;
      }
      seen += batch.length;
      const outcomes = await Promise.allSettled(
        batch.map(async (id) => {
          const { status } = await deps.gateway.cancelPaymentIntent(id, cancelIntentKey(id));
          if (status !== 'canceled' && status !== 'succeeded') return 'open' as const;
          await deps.intents.forget(productId, id);
          return status;
        }),
      );
      for (const outcome of outcomes) {
        if (outcome.status === 'fulfilled' && outcome.value === 'canceled') report.cancelled += 1;
        else if (outcome.status === 'fulfilled' && outcome.value === 'succeeded') report.paid += 1;
        else report.notCancelled += 1;
      }
    }
  } while (cursor);
  return report;
}
