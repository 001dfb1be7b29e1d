import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { keys } from '../../shared/src/db/table';
import { db, tableName } from '../../functions/src/adapters/dynamo-client';
import { dynamoProducts } from '../../functions/src/adapters/products/dynamo-products';
import { dynamoSales } from '../../functions/src/adapters/orders/dynamo-sales';
import { handler as approveProduct } from '../../functions/src/handlers/approve-product';
import { handler as banProduct } from '../../functions/src/handlers/ban-product';
import { handler as markAsOrdered } from '../../functions/src/handlers/mark-as-ordered';
import { handler as markAsShipped } from '../../functions/src/handlers/mark-as-shipped';
import { ALREADY_REGISTERED, handler as signup } from '../../functions/src/handlers/signup';
import { RACE_LOST } from '../../functions/src/http/api-handler';
import { alreadyMarked } from '../../functions/src/orders/manage';
import { NOT_IN_REVIEW } from '../../functions/src/products/moderation';
import { handler as addCommisionToStripe } from '../../functions/src/handlers/add-commission-to-stripe';
import { COUNTERS_KEY, commissionKey, createCommission, item } from './commission-fixtures';
import { DynamoFaults } from './dynamo-faults';
import { allItems, auth, call, tokenFor, uniqueEmail } from './helpers';
import { fundPlatform } from './own-stripe';
import { addedOrder, member, payableMember, product, stripeAtEmulator } from './sales-helpers';

/**
 * A conditional write or a transaction that loses a race. Where the race can be staged for real,
 * the other party's write is made (through the handlers, against DynamoDB Local) just before the
 * losing call's own write goes out, and DynamoDB Local itself refuses it. A TransactionConflict
 * cannot be staged on the local engine, so it is answered in DynamoDB's own wire format
 * (dynamo-faults.ts). Each test reads the items back: nothing half-written.
 */

const admin = await tokenFor(true);
let faults: DynamoFaults | undefined;
afterEach(() => {
  faults?.restore();
  faults = undefined;
});

const stored = async (key: { pk: string; sk: string }) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;
/** The order counters as the lists answer them: the sums of their shards. */
const orderCounters = () => dynamoSales.orderCounts();

const newOrder = async (): Promise<string> => (await addedOrder(admin, await member(), await product(1000))).order.id;

describe('marking an order', () => {
  it('markAsShipped loses to another admin marking it at the same moment: 409 in words, counted once', async () => {
    const id = await newOrder();
    expect((await call(markAsOrdered, { body: { id }, headers: auth(admin) })).status).toBe(200);
    const before = await orderCounters();

    let other = 0;
    faults = new DynamoFaults().before(
      'TransactWriteItemsCommand',
      async () => void (other = (await call(markAsShipped, { body: { id }, headers: auth(admin) })).status),
      { when: (input) => input.includes(id) },
    );
    const lost = await call(markAsShipped, { body: { id }, headers: auth(admin) });
    expect(other).toBe(200);
    expect(lost.status).toBe(409);
    expect(lost.body.message).toBe(alreadyMarked('shipped'));

    // The order moved once, and the counters with it: not twice, not half.
    expect(await stored(keys.order(id))).toMatchObject({ status: 'shipped' });
    expect(await orderCounters()).toEqual({
      ...before,
      notShipped: before.notShipped - 1,
      notFulfilled: before.notFulfilled + 1,
    });
  });

  it('markAsOrdered whose transaction keeps meeting a conflicting one: 409 in words, nothing written; a retry then works', async () => {
    const id = await newOrder();
    const before = { order: await stored(keys.order(id)), counters: await orderCounters() };

    faults = new DynamoFaults().cancel(['TransactionConflict', 'None'], {
      which: 'all',
      when: (input) => input.includes(id),
    });
    const lost = await call(markAsOrdered, { body: { id }, headers: auth(admin) });
    expect(lost.status).toBe(409);
    expect(lost.body).toEqual({ message: RACE_LOST });
    // Retried with backoff before giving up (markOrder's own loop), then answered in words.
    expect(faults.log.failed.length).toBeGreaterThan(1);
    expect(await stored(keys.order(id))).toEqual(before.order);
    expect(await orderCounters()).toEqual(before.counters);

    faults.restore();
    expect((await call(markAsOrdered, { body: { id }, headers: auth(admin) })).status).toBe(200);
    expect(await stored(keys.order(id))).toMatchObject({ status: 'ordered' });
  });
});

describe('moderating a product', () => {
  const inReview = async () => {
    const id = await product(1000, 'review');
    return { id, version: (await dynamoProducts.get(id))!.current.content_hash };
  };

  it('approveProduct loses to a ban made at the same moment: 409 in words; the product stays banned', async () => {
    const { id, version } = await inReview();
    faults = new DynamoFaults().before(
      'UpdateItemCommand',
      () => call(banProduct, { body: { id }, headers: auth(admin) }).then(() => undefined),
      {
        when: (input) => input.includes(id),
      },
    );
    const lost = await call(approveProduct, { body: { id, version }, headers: auth(admin) });
    expect(lost.status).toBe(409);
    expect(lost.body.message).toBe(NOT_IN_REVIEW);
    const item = await stored(keys.product(id));
    expect(item).toMatchObject({ status: 'banned' });
    expect(item).not.toHaveProperty('approvedAt');
    expect(item).not.toHaveProperty('approved');
    expect(item).not.toHaveProperty('gsi2pk');
  });

  it('banProduct loses to an approval made at the same moment: 409 in words; the product stays approved', async () => {
    const { id, version } = await inReview();
    faults = new DynamoFaults().before(
      'UpdateItemCommand',
      () => call(approveProduct, { body: { id, version }, headers: auth(admin) }).then(() => undefined),
      { when: (input) => input.includes(id) },
    );
    const lost = await call(banProduct, { body: { id }, headers: auth(admin) });
    expect(lost.status).toBe(409);
    expect(lost.body.message).toBe(NOT_IN_REVIEW);
    const item = await stored(keys.product(id));
    expect(item).toMatchObject({ status: 'approved', approved: { content_hash: version } });
    expect(item).not.toHaveProperty('bannedAt');
  });
});

describe('signing up with an address being signed up at the same moment', () => {
  const password = 'a long enough password';
  const claimsOf = async (email: string) => {
    const items = await allItems();
    return {
      claims: items.filter((item) => item.entity === 'UserEmail' && item.pk === keys.email(email).pk),
      users: items.filter((item) => item.entity === 'User' && item.email === email),
    };
  };

  it('the second of two sign-ups gets 409 in words, and there is one account', async () => {
    const email = uniqueEmail('race');
    let other = 0;
    faults = new DynamoFaults().before(
      'TransactWriteItemsCommand',
      async () => void (other = (await call(signup, { body: { email, password } })).status),
      { when: (input) => input.includes(email) },
    );
    const lost = await call(signup, { body: { email, password } });
    expect(other).toBe(200);
    expect(lost.status).toBe(409);
    expect(lost.body.message).toBe(ALREADY_REGISTERED);
    const { claims, users } = await claimsOf(email);
    expect(claims).toHaveLength(1);
    expect(users).toHaveLength(1);
    expect(claims[0]!.userId).toBe(users[0]!.id);
  });

  it('a transaction conflict on the claim is tried again: one account, signed in', async () => {
    const email = uniqueEmail('conflict');
    faults = new DynamoFaults().cancel(['None', 'TransactionConflict', 'None'], {
      when: (input) => input.includes(email),
    });
    const result = await call(signup, { body: { email, password } });
    expect(faults.log.failed).toEqual(['TransactWriteItemsCommand']);
    expect(result.status).toBe(200);
    const { claims, users } = await claimsOf(email);
    expect(claims).toHaveLength(1);
    expect(users).toHaveLength(1);
  });

  it('a claim that keeps conflicting: 409 in words, and neither the user nor the claim is written', async () => {
    const email = uniqueEmail('conflicts');
    faults = new DynamoFaults().cancel(['None', 'TransactionConflict', 'None'], {
      which: 'all',
      when: (input) => input.includes(email),
    });
    const result = await call(signup, { body: { email, password } });
    expect(result.status).toBe(409);
    expect(result.body).toEqual({ message: RACE_LOST });
    expect(await claimsOf(email)).toEqual({ claims: [], users: [] });
  });
});

describe('sending a commission to Stripe', () => {
  const stripe = stripeAtEmulator();

  /** A member with a payout account and a debit card, and a fulfilled commission of theirs; the platform funded. */
  async function payableCommission(amountCents: number) {
    await fundPlatform(stripe, amountCents * 2);
    const seller = await payableMember(stripe);
    const commission = await createCommission({ memberId: seller.id, memberEmail: seller.email, amountCents });
    const transfers = async () => (await stripe.transfers.list({ destination: seller.accountId, limit: 100 })).data;
    return { id: commission.id, transfers };
  }
  const send = (id: string) => call(addCommisionToStripe, { body: { id }, headers: auth(admin) });
  /** The move's write: the commission and the commissions' counters, in one transaction. */
  const theMove = (id: string) => (input: string) => input.includes(id) && input.includes('COUNTER#COMMISSIONS');

  it('a conflict on the move (its counter shard written by another move at once) is tried again: 200, one transfer, moved once', async () => {
    const commission = await payableCommission(812);
    const before = (await item(COUNTERS_KEY))!;
    faults = new DynamoFaults().cancel(['None', 'TransactionConflict'], { when: theMove(commission.id) });
    const sent = await send(commission.id);
    expect(faults.log.failed).toEqual(['TransactWriteItemsCommand']);
    expect(sent.status).toBe(200);
    expect(await commission.transfers()).toHaveLength(1);
    expect(await item(commissionKey(commission.id))).toMatchObject({
      isInCustomersAccount: 1,
      transferId: (await commission.transfers())[0]!.id,
    });
    const after = (await item(COUNTERS_KEY))!;
    expect([after.toStripeCount, after.toBePaidCount]).toEqual([
      Number(before.toStripeCount) - 1,
      Number(before.toBePaidCount) + 1,
    ]);
  });

  it('a move that keeps conflicting: 409 in words, the commission stays in processing with its marker, and the retry completes it with the same transfer', async () => {
    const commission = await payableCommission(913);
    faults = new DynamoFaults().cancel(['None', 'TransactionConflict'], {
      which: 'all',
      when: theMove(commission.id),
    });
    const lost = await send(commission.id);
    expect(lost.status).toBe(409);
    expect(lost.body).toEqual({ message: RACE_LOST });
    const kept = await item(commissionKey(commission.id));
    expect(kept).toMatchObject({ isInCustomersAccount: 0, transferId: null, gsi2pk: 'COMMISSIONS#STAGE#to_stripe' });
    expect(kept!.transferPendingAt).toEqual(expect.any(String));
    const transfers = await commission.transfers();
    expect(transfers).toHaveLength(1);

    faults.restore();
    const retried = await send(commission.id);
    expect(retried.status).toBe(200);
    // Stripe's idempotency key gave the same transfer back: still one, now stored.
    expect((await commission.transfers()).map((transfer) => transfer.id)).toEqual([transfers[0]!.id]);
    expect(await item(commissionKey(commission.id))).toMatchObject({
      isInCustomersAccount: 1,
      transferId: transfers[0]!.id,
    });
  });
});
