import type { CheckoutCancelCounts } from '@portal/shared/domain/open-checkouts';
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
  /** How many intents of the product are open now (a count of its partition). */
  count(productId: string): Promise<number>;
  /**
   * The intent is no longer open because the ban's cancelling found it `cancelled` (or `paid`):
   * its item is deleted and the product's cancel counts add one, in one transaction, on the
   * condition that the item is still there. False when it was not (a redelivered message, another
   * poller, or the sale deleted it first): nothing is counted twice.
   */
  settle(productId: string, paymentIntentId: string, outcome: 'cancelled' | 'paid'): Promise<boolean>;
}

/** The counts of a product's cancelling (`CHECKOUT_CANCELS#<productId>`), what the admin reads. */
export interface CancelProgressStore {
  /** A new cancelling of `total` open intents (a later ban or withdrawal starts it again from zero). */
  start(productId: string, total: number, atIso: string): Promise<void>;
  /** The cancelling ended: `notCancelled` intents are still open (Stripe would not cancel them). */
  finish(productId: string, notCancelled: number): Promise<void>;
  get(productId: string): Promise<CheckoutCancelCounts | undefined>;
}

/**
 * One step of a product's cancelling, one SQS message (issue 38): a page of its open intents from
 * `cursor` (none: from the start), in pass `pass`; `left` counts the intents earlier pages of this
 * pass left open. Each step sends the next.
 */
export interface CancelWork {
  productId: string;
  cursor?: Record<string, unknown>;
  pass: number;
  left: number;
}

/** The checkout-cancel queue: SQS in AWS, the local SQS under npm start (decision 0380). */
export interface CancelQueue {
  send(work: CancelWork, delaySeconds?: number): Promise<void>;
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
  progress: CancelProgressStore;
  queue: CancelQueue;
  gateway: Pick<PaymentGateway, 'cancelPaymentIntent'>;
  /** Whether the product is still off sale (banned or withdrawn): a product sold again stops its cancelling. */
  offSale(productId: string): Promise<boolean>;
  /** Epoch ms (the clock). */
  now: () => number;
}

/**
 * How one step spends its function's time (docs/decisions/0410): a page of 50 intents, ten Stripe
 * calls side by side. A call that Stripe does not answer waits three attempts of 4 s (decision
 * 0028), so a page takes at most 5 × 12 s, within the function's 120 s.
 */
export const CANCEL_PAGE = 50;
export const CANCEL_CONCURRENCY = 10;
/** Passes over the intents Stripe would not cancel (an error, a `processing` payment), a while apart. */
export const CANCEL_PASSES = 3;
export const cancelPassDelaySeconds = (pass: number): number => Math.min(900, 60 * pass);

/**
 * A ban or withdrawal starts cancelling the product's open intents (issue 38): their count is
 * recorded (what the admin's "Cancelling 1,000 open checkouts…" reads) and the first step goes to
 * the checkout-cancel queue. The ban itself is written first and stands; a queue that does not
 * take the message ends the cancelling at once with every intent not cancelled, and a payment of
 * one of them is flagged at its sale (orders/abuse.ts).
 */
export async function startCancelling(
  deps: Pick<CancelDeps, 'intents' | 'progress' | 'queue' | 'now'>,
  productId: string,
): Promise<CheckoutCancelCounts> {
  const total = await deps.intents.count(productId);
  await deps.progress.start(productId, total, new Date(deps.now()).toISOString());
  const counts = { total, cancelled: 0, paid: 0, notCancelled: 0, done: total === 0 };
  if (total === 0) return counts;
  try {
    await deps.queue.send({ productId, pass: 1, left: 0 });
  } catch {
    await deps.progress.finish(productId, total);
    return { ...counts, notCancelled: total, done: true };
  }
  return counts;
}

/**
 * One step (one message): the page's intents are cancelled at Stripe, ten at a time, each with its
 * own idempotency key; one Stripe answers `canceled` is settled as cancelled, one found `succeeded`
 * as paid (its sale records it flagged, as before the queue); any other answer, or an error, leaves
 * it open for the next pass. Then the next page's message, or the next pass a while later, or the
 * end: what is still open is counted not cancelled. A redelivered message reads the partition as it
 * is now: the intents it settled are gone from it, and a settle is conditional, so nothing is
 * cancelled or counted twice.
 */
export async function cancelStep(deps: CancelDeps, work: CancelWork): Promise<void> {
  if (!(await deps.offSale(work.productId))) {
    // Put back on sale meanwhile: its new checkouts are the customers' own, left open.
    await deps.progress.finish(work.productId, await deps.intents.count(work.productId));
    return;
  }
  const page = await deps.intents.page(work.productId, CANCEL_PAGE, work.cursor);
  let left = work.left;
  for (let start = 0; start < page.ids.length; start += CANCEL_CONCURRENCY) {
    const outcomes = await Promise.allSettled(
      page.ids.slice(start, start + CANCEL_CONCURRENCY).map(async (id) => {
        const { status } = await deps.gateway.cancelPaymentIntent(id, cancelIntentKey(id));
        if (status === 'canceled') await deps.intents.settle(work.productId, id, 'cancelled');
        else if (status === 'succeeded') await deps.intents.settle(work.productId, id, 'paid');
        else return 'open' as const;
        return 'settled' as const;
      }),
    );
    left += outcomes.filter((outcome) => outcome.status === 'rejected' || outcome.value === 'open').length;
  }
  if (page.next) {
    await deps.queue.send({ productId: work.productId, cursor: page.next, pass: work.pass, left });
  } else if (left > 0 && work.pass < CANCEL_PASSES) {
    await deps.queue.send(
      { productId: work.productId, pass: work.pass + 1, left: 0 },
      cancelPassDelaySeconds(work.pass),
    );
  } else {
    await deps.progress.finish(work.productId, left > 0 ? await deps.intents.count(work.productId) : 0);
  }
}

/** A step's message as the queue hands it over; anything else is a poison message (thrown). */
export function parseCancelWork(body: string): CancelWork {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new Error('The checkout-cancel message is not JSON');
  }
  const work = value as Partial<CancelWork> | null;
  if (
    !work ||
    typeof work.productId !== 'string' ||
    work.productId.length === 0 ||
    work.productId.length > 200 ||
    !Number.isInteger(work.pass) ||
    (work.pass ?? 0) < 1 ||
    !Number.isInteger(work.left) ||
    (work.left ?? -1) < 0 ||
    (work.cursor !== undefined && (typeof work.cursor !== 'object' || work.cursor === null))
  ) {
    throw new Error('The checkout-cancel message is not a step of a cancelling');
  }
  return {
    productId: work.productId,
    pass: work.pass!,
    left: work.left!,
    ...(work.cursor ? { cursor: work.cursor } : {}),
  };
}
