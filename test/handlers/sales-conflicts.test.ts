import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { db, tableName } from '../../functions/src/adapters/dynamo-client';
import { dynamoSales } from '../../functions/src/adapters/orders/dynamo-sales';
import { dynamoCommissionStore } from '../../functions/src/adapters/commissions/dynamo-commission-store';
import { upgradeSalesItems } from '../../functions/src/adapters/orders/dynamo-sales-upgrade';
import { handler as upgradeAfterDeploy } from '../../functions/src/handlers/deploy/upgrade-table';
import { handler as addOrder } from '../../functions/src/handlers/add-order';
import { handler as confirmCheckout } from '../../functions/src/handlers/confirm-checkout';
import { handler as getCommisionsByUser } from '../../functions/src/handlers/get-commissions-by-user';
import { handler as getCommisionsToBePayed } from '../../functions/src/handlers/get-commissions-to-be-paid';
import { handler as getOrders } from '../../functions/src/handlers/get-orders';
import { handler as getOrdersNotFufilled } from '../../functions/src/handlers/get-orders-not-fulfilled';
import { handler as getTopEarners } from '../../functions/src/handlers/get-top-earners';
import { handler as markAsFufilled } from '../../functions/src/handlers/mark-as-fulfilled';
import { paymentOrderIds } from '../../functions/src/orders/record-sale';
import { keys } from '../../shared/src/db/table';
import { asFunction, auth, call, tokenFor } from './helpers';
import {
  customer,
  deliver,
  itemsOf,
  member,
  paidCheckout,
  product,
  stripeAtEmulator,
  succeededEvent,
} from './sales-helpers';
import { placesRefreshed, withTableStream } from './places';

// The top-earners places are written from the table's stream (decision 0481).
await withTableStream();

/**
 * No sale waits on another, and none is lost: a paid checkout whose transactions DynamoDB keeps
 * cancelling (TransactionConflict, which DynamoDB Local never produces: it runs transactions one
 * at a time) still ends recorded, once; many sales of one member at once keep their totals and
 * place exact; and items stored before the status and the shards still read, move and list.
 */
const stripe = stripeAtEmulator();
const admin = await tokenFor(true);

let mocked: ReturnType<typeof mockClient> | undefined;
afterEach(() => {
  mocked?.restore();
  mocked = undefined;
});

/** The real `send`, taken before aws-sdk-client-mock stubs the functions' client, to pass calls through. */
const realSend = DynamoDBDocumentClient.prototype.send as (this: DynamoDBDocumentClient, command: unknown) => unknown;

/**
 * aws-sdk-client-mock on the functions' own document client: every command goes to DynamoDB Local
 * through the real client, except a TransactWriteItems naming `paymentIntentId`, which is
 * cancelled with a TransactionConflict while `conflicts()` says so (counting each one).
 */
function conflictsOn(paymentIntentId: string, conflicts: () => boolean) {
  const seen = { cancelled: 0 };
  const client = db();
  mocked = mockClient(client);
  const through =
    <I extends object>(Command: new (input: I) => unknown) =>
    (input: I) =>
      realSend.call(client, new Command(input));
  mocked.on(GetCommand).callsFake(through(GetCommand));
  mocked.on(PutCommand).callsFake(through(PutCommand));
  mocked.on(DeleteCommand).callsFake(through(DeleteCommand)); // the webhook's release of a failed event
  mocked.on(UpdateCommand).callsFake(through(UpdateCommand));
  mocked.on(QueryCommand).callsFake(through(QueryCommand));
  mocked.on(BatchGetCommand).callsFake(through(BatchGetCommand));
  mocked.on(ScanCommand).callsFake(through(ScanCommand)); // this test's own reads (allItems)
  mocked.on(TransactWriteCommand).callsFake((input: TransactWriteCommand['input']) => {
    if (JSON.stringify(input).includes(paymentIntentId) && conflicts()) {
      seen.cancelled++;
      throw new TransactionCanceledException({
        message: 'Transaction cancelled, please refer cancellation reasons for specific reasons',
        $metadata: { httpStatusCode: 400 },
        CancellationReasons: (input.TransactItems ?? []).map((_, index) =>
          index === 0
            ? { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' }
            : { Code: 'None' },
        ),
      });
    }
    return realSend.call(client, new TransactWriteCommand(input));
  });
  return seen;
}

describe('a paid checkout whose transactions DynamoDB keeps cancelling', () => {
  it('answers the customer their order, and the webhook records it once when DynamoDB lets it', async () => {
    const seller = await member();
    const id = await product(1500);
    const intentId = await paidCheckout(stripe, id, 1500, 2, { ref: seller.shareCode, customer });
    const expected = paymentOrderIds(intentId);
    const before = await dynamoSales.orderCounts();

    // Every attempt conflicts: the browser's call gives up writing, never the customer.
    let conflictsLeft = Number.POSITIVE_INFINITY;
    const seen = conflictsOn(intentId, () => conflictsLeft-- > 0);
    const confirmed = await call(confirmCheckout, { body: { paymentIntentId: intentId } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ orderID: expected.orderID, qty: 2, totalPayed: 30 });
    expect(seen.cancelled).toBeGreaterThan(1); // tried again before leaving it to the webhook
    expect(await itemsOf('order', (item) => item.paymentIntentId === intentId)).toEqual([]);

    // The webhook meets the same: it answers an error (not 2xx), so Stripe delivers the event again.
    const payload = await succeededEvent(stripe, intentId);
    const failed = await deliver(payload);
    expect(failed.status).toBeGreaterThanOrEqual(400);
    expect(await itemsOf('order', (item) => item.paymentIntentId === intentId)).toEqual([]);

    // Stripe's next delivery meets two conflicts, then DynamoDB lets the transaction through.
    conflictsLeft = 2;
    const cancelledBefore = seen.cancelled;
    expect((await deliver(payload)).status).toBe(200);
    expect(seen.cancelled - cancelledBefore).toBe(2);

    // Recorded once, under the number the customer was told; the browser's next report agrees.
    const orders = await itemsOf('order', (item) => item.paymentIntentId === intentId);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ id: expected.id, orderID: expected.orderID, status: 'not_ordered' });
    expect(await itemsOf('commission', (item) => item.orderId === expected.id)).toHaveLength(1);
    expect((await call(confirmCheckout, { body: { paymentIntentId: intentId } })).body).toEqual(confirmed.body);
    expect((await deliver(payload)).status).toBe(200);
    expect(await itemsOf('order', (item) => item.paymentIntentId === intentId)).toHaveLength(1);
    const after = await dynamoSales.orderCounts();
    expect([after.all - before.all, after.notOrdered - before.notOrdered]).toEqual([1, 1]);
  });
});

describe('many sales of one member at once (a viral link)', () => {
  it('keep the counters, the member’s totals and their place among the top earners exact', async () => {
    const seller = await member();
    const id = await product(2000); // $2.00 each
    const before = await dynamoCommissionStore.commissionCounts();
    const sales = await Promise.all(
      Array.from({ length: 30 }, () =>
        call(addOrder, {
          body: { product_id: id, qty: 1, ref: seller.shareCode, customer },
          headers: auth(admin),
        }),
      ),
    );
    expect(sales.map((sale) => sale.status)).toEqual(sales.map(() => 200));
    const after = await dynamoCommissionStore.commissionCounts();
    expect([after.count - before.count, after.toStripeCents - before.toStripeCents]).toEqual([30, 6000]);
    const own = await call(getCommisionsByUser, { body: { id: seller.id, limit: 500 }, headers: auth(seller.token) });
    expect(own.body.totals).toEqual({ paid: 0, processing: 60, count: 30 });
    expect((own.body.items as unknown[]).length).toBe(30);
    await placesRefreshed();
    const top = await call(getTopEarners, { body: { limit: 500 }, headers: auth(admin) });
    expect((top.body.items as { id: string }[]).find((earner) => earner.id === seller.id)).toEqual({
      id: seller.id,
      email: seller.email,
      count: 30,
      totalCommisions: 60,
    });
    // The sale transactions wrote shards of the counters, not one item every sale writes.
    const shards = await itemsOf('earningsShard', (item) => item.pk === `USER#${seller.id}`);
    expect(shards.length).toBeGreaterThan(1);
  });
});

describe('sales stored before the status and the shards', () => {
  it('read with their flags, list and count, move along the transitions, and move to the lists’ right names', async () => {
    const seller = await member();
    const stamp = new Date().toISOString();
    const orderId = `legacy-order-${Date.now()}`;
    const commissionId = `legacy-commission-${Date.now()}`;
    const paidOutId = `legacy-in-stripe-${Date.now()}`;
    const put = (item: Record<string, unknown>) => db().send(new PutCommand({ TableName: tableName(), Item: item }));
    const add = (key: { pk: string; sk: string }, values: Record<string, number>) =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: key,
          UpdateExpression: `ADD ${Object.keys(values)
            .map((name) => `#${name} :${name}`)
            .join(', ')}`,
          ExpressionAttributeNames: Object.fromEntries(Object.keys(values).map((name) => [`#${name}`, name])),
          ExpressionAttributeValues: Object.fromEntries(Object.entries(values).map(([name, v]) => [`:${name}`, v])),
        }),
      );
    const commission = (id: string, flags: Record<string, 0 | 1>, stage: string) => ({
      pk: `COMMISSION#${id}`,
      sk: 'COMMISSION',
      entity: 'commission',
      id,
      memberId: seller.id,
      memberEmail: seller.email,
      orderId,
      orderID: 'RP-LEGACY01',
      product_id: 'legacy-product',
      product_name: 'Legacy lamp',
      amountCents: 250,
      ...flags,
      transferId: flags.isInCustomersAccount ? 'tr_legacy' : null,
      payoutId: null,
      payoutFailure: null,
      createdAt: stamp,
      updatedAt: stamp,
      gsi1pk: 'COMMISSIONS',
      gsi1sk: `${stamp}#${id}`,
      gsi2pk: stage,
      gsi2sk: `${stamp}#${id}`,
      gsi3pk: `COMMISSIONS#USER#${seller.id}`,
      gsi3sk: `${stamp}#${id}`,
    });
    // As the writes of before left them: flags, the misspelled stage names and counter names, one
    // counter item, the member's totals on their EARNINGS item.
    await put({
      pk: `ORDER#${orderId}`,
      sk: 'ORDER',
      entity: 'order',
      id: orderId,
      orderID: 'RP-LEGACY01',
      qty: 1,
      product_id: 'legacy-product',
      product_name: 'Legacy lamp',
      brand: 'Lumo',
      product_image: null,
      spu_no: 'LEGACY-1',
      product_url: '',
      unitCents: 2500,
      totalCents: 2500,
      customer,
      memberId: seller.id,
      memberEmail: seller.email,
      source: 'admin',
      paymentIntentId: null,
      commissionId,
      isOrdered: 1,
      isShipped: 1,
      isFufilled: 0,
      createdAt: stamp,
      gsi1pk: 'ORDERS',
      gsi1sk: `${stamp}#${orderId}`,
      gsi2pk: 'ORDERS#STAGE#not_fufilled',
      gsi2sk: `${stamp}#${orderId}`,
    });
    await put(
      commission(
        commissionId,
        { isPayed: 0, isInCustomersAccount: 0, orderFulfilled: 0 },
        'COMMISSIONS#STAGE#to_stripe',
      ),
    );
    await put(
      commission(
        paidOutId,
        { isPayed: 0, isInCustomersAccount: 1, orderFulfilled: 1 },
        'COMMISSIONS#STAGE#to_be_payed',
      ),
    );
    const countsBefore = await dynamoSales.orderCounts();
    const commissionsBefore = await dynamoCommissionStore.commissionCounts();
    await add({ pk: 'COUNTER#ORDERS', sk: 'COUNTER' }, { all: 1, notFufilled: 1 });
    await add(
      { pk: 'COUNTER#COMMISSIONS', sk: 'COUNTER' },
      {
        count: 2,
        totalCents: 500,
        processingCents: 500,
        toStripeCount: 1,
        toStripeCents: 250,
        toBePayedCount: 1,
        toBePayedCents: 250,
      },
    );
    await put({
      ...keys.earnings(seller.id),
      entity: 'earnings',
      memberId: seller.id,
      memberEmail: seller.email,
      count: 2,
      totalCents: 500,
      paidCents: 0,
      processingCents: 500,
      gsi1pk: 'TOP_EARNERS',
      gsi1sk: `${'500'.padStart(15, '0')}#${seller.id}`,
    });

    // Read as before: the flags from the status read off them; the counters' old names summed in.
    const all = await call(getOrders, { body: { limit: 500 }, headers: auth(admin) });
    expect((all.body.items as { id: string }[]).find((order) => order.id === orderId)).toMatchObject({
      isOrdered: 1,
      isShipped: 1,
      isFufilled: 0,
    });
    expect((await dynamoSales.orderCounts()).notFulfilled).toBe(countsBefore.notFulfilled + 1);
    expect((await dynamoCommissionStore.commissionCounts()).toBePaidCount).toBe(commissionsBefore.toBePaidCount + 1);
    const own = await call(getCommisionsByUser, { body: { id: seller.id }, headers: auth(seller.token) });
    expect(own.body.totals).toEqual({ paid: 0, processing: 5, count: 2 });

    // On start (npm start) and after a deploy (the stack's trigger): the misspelled lists' items move
    // to the right names, once.
    expect((await asFunction('upgradeTable', () => upgradeAfterDeploy())).moved).toBeGreaterThanOrEqual(2);
    expect((await upgradeSalesItems()).moved).toBe(0);
    const awaiting = await call(getOrdersNotFufilled, { body: { limit: 500 }, headers: auth(admin) });
    expect((awaiting.body.items as { id: string }[]).map((order) => order.id)).toContain(orderId);
    const toBePaid = await call(getCommisionsToBePayed, { body: { limit: 500 }, headers: auth(admin) });
    expect((toBePaid.body.items as { id: string }[]).find((item) => item.id === paidOutId)).toMatchObject({
      state: 'in_stripe',
      isInCustomersAccount: 1,
      isPayed: 0,
    });

    // Its first move: shipped → fulfilled from its flags; the status replaces them, and its
    // commission moves on to processing.
    const fulfilled = await call(markAsFufilled, { body: { id: orderId }, headers: auth(admin) });
    expect(fulfilled.status).toBe(200);
    expect(fulfilled.body.order).toMatchObject({ isOrdered: 1, isShipped: 1, isFufilled: 1 });
    const [stored] = await itemsOf('order', (item) => item.id === orderId);
    expect(stored).toMatchObject({ status: 'fulfilled' });
    expect(stored).not.toHaveProperty('isOrdered');
    expect(stored).not.toHaveProperty('gsi2pk');
    const [movedOn] = await itemsOf('commission', (item) => item.id === commissionId);
    expect(movedOn).toMatchObject({ status: 'processing' });
    expect(movedOn).not.toHaveProperty('orderFulfilled');
    expect((await dynamoSales.orderCounts()).notFulfilled).toBe(countsBefore.notFulfilled);

    // A new sale of the member adds to the totals of before, and their place counts both.
    const id = await product(1000);
    const sold = await call(addOrder, {
      body: { product_id: id, qty: 1, ref: seller.shareCode, customer },
      headers: auth(admin),
    });
    expect(sold.status).toBe(200);
    const totals = await call(getCommisionsByUser, { body: { id: seller.id }, headers: auth(seller.token) });
    expect(totals.body.totals).toEqual({ paid: 0, processing: 6, count: 3 });
    await placesRefreshed();
    const top = await call(getTopEarners, { body: { limit: 500 }, headers: auth(admin) });
    expect((top.body.items as { id: string }[]).find((earner) => earner.id === seller.id)).toMatchObject({
      count: 3,
      totalCommisions: 6,
    });
  });
});
