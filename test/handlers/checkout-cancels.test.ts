import { ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import type Stripe from 'stripe';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { handler as banProduct } from '../../functions/src/handlers/ban-product';
import { handler as getCheckoutCancels } from '../../functions/src/handlers/get-checkout-cancels';
import { handler as getPaymentIntent } from '../../functions/src/handlers/get-payment-intent';
import { handler as withdrawProduct } from '../../functions/src/handlers/withdraw-product';
import { dynamoOpenIntents } from '../../functions/src/adapters/payments/dynamo-open-intents';
import { dynamoProducts } from '../../functions/src/adapters/products/dynamo-products';
import { OPEN_INTENT_DAYS } from '../../functions/src/payments/open-intents';
import { paymentOrderIds } from '../../functions/src/orders/record-sale';
import { keys } from '../../shared/src/db/table';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../functions/src/adapters/dynamo-client';
import { checkoutCancelQueue } from './checkout-cancel-queue';
import { auth, call, tokenFor } from './helpers';
import { customer, deliver, product, stripeAtEmulator, succeededEvent } from './sales-helpers';

/**
 * A ban or withdrawal cancels ALL the product's open checkouts (issue 38), through the
 * checkout-cancel queue on the local SQS, the cancel function behind the local event source
 * mapping, DynamoDB Local and the Stripe emulator: 1,000 open checkouts, every one cancelled at
 * Stripe once, a redelivered step harmless, a payment made before the ban flagged at its sale.
 */
vi.setConfig({ testTimeout: 240_000 });

// First: the functions' environment is read once, at the first call.
const queue = await checkoutCancelQueue();
const stripe = stripeAtEmulator();
const admin = await tokenFor(true);
afterAll(() => queue.close());

/** Runs `work` over `items`, `width` at a time. */
async function inParallel<T, R>(items: readonly T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!);
      }
    }),
  );
  return results;
}

/**
 * `count` open checkouts of a product, made fast: each intent made at the emulator as
 * getPaymentIntent makes it (a card, no redirects) and recorded open under the product as it
 * records it (dynamoOpenIntents.track, the product's still-sold check included).
 */
async function openCheckouts(productId: string, cents: number, count: number): Promise<string[]> {
  const expiresAt = Math.floor(Date.now() / 1000) + OPEN_INTENT_DAYS * 24 * 3600;
  return inParallel(Array.from({ length: count }), 25, async () => {
    const intent = await stripe.paymentIntents.create({
      amount: cents,
      currency: 'usd',
      automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
    });
    expect(await dynamoOpenIntents.track(productId, intent.id, expiresAt)).toBe(true);
    return intent.id;
  });
}

/** A product approved, then changed by an import (in review again, still sold at its approved values): a ban applies. */
async function productInReview(cents: number): Promise<string> {
  const id = await product(cents);
  const stored = (await dynamoProducts.get(id))!;
  const changed = { ...stored.current, content_hash: `${stored.current.content_hash.slice(0, 60)}beef` };
  const before = { id, status: 'approved' as const, contentHash: stored.current.content_hash };
  expect(await dynamoProducts.revise(id, changed, before, 'job2', new Date().toISOString())).toBe(true);
  return id;
}

const progress = async (id: string) =>
  (await call(getCheckoutCancels, { body: { id }, headers: auth(admin) })).body as {
    total: number;
    cancelled: number;
    paid: number;
    notCancelled: number;
    done: boolean;
  };

/** Every payment_intent.canceled event of these intents at the emulator, by intent. */
async function canceledEvents(ids: readonly string[]): Promise<Map<string, number>> {
  const wanted = new Set(ids);
  const found = new Map<string, number>();
  for await (const event of stripe.events.list({ type: 'payment_intent.canceled', limit: 100 })) {
    const id = (event.data.object as Stripe.PaymentIntent).id;
    if (wanted.has(id)) found.set(id, (found.get(id) ?? 0) + 1);
  }
  return found;
}

describe('a ban with 1,000 open checkouts', () => {
  it('cancels every one through the queue, each once though its first step came twice; one paid before the ban is flagged at its sale', async () => {
    const id = await productInReview(1500);
    // One checkout through the customer's call, paid before the ban (its webhook comes after).
    const made = await call(getPaymentIntent, { body: { id, amount: 1500, qty: 1, customer } });
    expect(made.status).toBe(200);
    const paidId = String(made.body.clientSecret).split('_secret_')[0]!;
    expect((await stripe.paymentIntents.confirm(paidId, { payment_method: 'pm_card_visa' })).status).toBe('succeeded');
    const started = Date.now();
    const open = await openCheckouts(id, 1500, 999);
    console.log(`999 open checkouts made in ${Date.now() - started} ms`);
    expect(await dynamoOpenIntents.count(id)).toBe(1000);

    const banned = await call(banProduct, { body: { id }, headers: auth(admin) });
    expect(banned.status).toBe(200);
    expect(banned.body).toEqual({
      id,
      status: 'banned',
      openCheckouts: { total: 1000, cancelled: 0, paid: 0, notCancelled: 0, done: false },
    });
    expect(await progress(id)).toMatchObject({ total: 1000, done: false });

    // What SQS may do: deliver the first step twice (at-least-once). Both run side by side.
    const [first] =
      (await queue.sqs.send(new ReceiveMessageCommand({ QueueUrl: queue.url, VisibilityTimeout: 0 }))).Messages ?? [];
    expect(JSON.parse(first!.Body!)).toEqual({ productId: id, pass: 1, left: 0 });
    await queue.sqs.send(new SendMessageCommand({ QueueUrl: queue.url, MessageBody: first!.Body! }));

    const poller = queue.start();
    const cancelling = Date.now();
    await poller.idle();
    console.log(`1,000 open checkouts cancelled through the queue in ${Date.now() - cancelling} ms`);
    expect(await progress(id)).toEqual({ total: 1000, cancelled: 999, paid: 1, notCancelled: 0, done: true });
    expect(await dynamoOpenIntents.count(id)).toBe(0);
    // The emulator is the witness: each cancelled once (one payment_intent.canceled event each).
    const events = await canceledEvents(open);
    expect(events.size).toBe(999);
    expect([...events.values()].every((times) => times === 1)).toBe(true);
    const sample = await Promise.all(open.slice(0, 20).map((intent) => stripe.paymentIntents.retrieve(intent)));
    expect(sample.map((intent) => [intent.status, intent.cancellation_reason])).toEqual(
      sample.map(() => ['canceled', 'abandoned']),
    );

    // A step delivered again after the end cancels and counts nothing.
    await queue.sqs.send(new SendMessageCommand({ QueueUrl: queue.url, MessageBody: first!.Body! }));
    await poller.idle();
    expect(await progress(id)).toEqual({ total: 1000, cancelled: 999, paid: 1, notCancelled: 0, done: true });
    expect((await canceledEvents(open)).size).toBe(999);

    // The payment made before the ban is recorded at its webhook, flagged for the admin, as before the queue.
    expect((await deliver(await succeededEvent(stripe, paidId))).status).toBe(200);
    const order = (
      await db().send(
        new GetCommand({ TableName: tableName(), Key: keys.order(paymentOrderIds(paidId).id), ConsistentRead: true }),
      )
    ).Item;
    expect(order).toMatchObject({ flag: 'Product was banned before payment' });
    await queue.stop();
  });
});

describe('a withdrawal', () => {
  it('cancels its open checkouts the same way; none open: done at once, no message', async () => {
    const id = await product(900);
    const open = await openCheckouts(id, 900, 60);
    const withdrawn = await call(withdrawProduct, { body: { id }, headers: auth(admin) });
    expect(withdrawn.body.openCheckouts).toEqual({ total: 60, cancelled: 0, paid: 0, notCancelled: 0, done: false });
    const poller = queue.start();
    await poller.idle();
    expect(await progress(id)).toEqual({ total: 60, cancelled: 60, paid: 0, notCancelled: 0, done: true });
    expect((await canceledEvents(open)).size).toBe(60);
    await queue.stop();

    const quiet = await product(900);
    const none = await call(withdrawProduct, { body: { id: quiet }, headers: auth(admin) });
    expect(none.body.openCheckouts).toEqual({ total: 0, cancelled: 0, paid: 0, notCancelled: 0, done: true });
    expect(await progress(quiet)).toMatchObject({ total: 0, done: true });
    const waiting = await queue.sqs.send(new ReceiveMessageCommand({ QueueUrl: queue.url, VisibilityTimeout: 0 }));
    expect(waiting.Messages ?? []).toEqual([]);
  });
});
