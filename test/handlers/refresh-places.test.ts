import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { dynamoCommissionStore } from '../../functions/src/adapters/commissions/dynamo-commission-store';
import { handler as refreshPlaces } from '../../functions/src/handlers/streams/refresh-places';
import { handler as getTopEarners } from '../../functions/src/handlers/get-top-earners';
import { keys, topEarnerSortKey } from '../../shared/src/db/table';
import type { StreamBatchFailure } from '../../infra/local/stream-events';
import { auth, call, tokenFor } from './helpers';
import { addedOrder, customer, member, product, type Member } from './sales-helpers';
import { placesRefreshed, withTableStream } from './places';
import { item } from './commission-fixtures';

// The top-earners places are written from the table's stream (decision 0481).
await withTableStream();

/**
 * The members' top-earners places off the sale's path (decision 0481): a sale writes its member's
 * earnings shard and no place; the places function writes the place from the table's stream, each
 * member of a batch once, behind the local event source mapping with the stack's own settings.
 */
const admin = await tokenFor(true);
const sell = (seller: Member, productId: string, qty = 1) => addedOrder(admin, seller, productId, qty);
const placeOf = (seller: Member) => item(keys.earnings(seller.id));

afterEach(() => vi.restoreAllMocks());

/**
 * The store's refresh failing for one member its first `times` tries (Infinity: every one), the
 * others' real; answers how many times that member's refresh was tried.
 */
function refreshFailingFor(memberId: string, times: number, message: string): () => number {
  const refresh = dynamoCommissionStore.refreshPlace;
  let tried = 0;
  vi.spyOn(dynamoCommissionStore, 'refreshPlace').mockImplementation(async (id) => {
    if (id === memberId && tried++ < times) throw new Error(message);
    return refresh(id);
  });
  return () => tried;
}

describe('the places function', () => {
  it('writes a place only from the stream: none right after the sale, the exact one after the function ran', async () => {
    const seller = await member();
    const lamp = await product(5000); // commission $5.00
    await sell(seller, lamp);
    // The sale's transaction wrote the earnings shard, not the place.
    expect(await placeOf(seller)).toBeUndefined();
    await placesRefreshed();
    expect(await placeOf(seller)).toMatchObject({
      memberEmail: seller.email,
      rankCount: 1,
      rankCents: 500,
      gsi1sk: topEarnerSortKey(500, seller.id),
    });
    const top = await call(getTopEarners, { body: { limit: 500 }, headers: auth(admin) });
    expect((top.body.items as { id: string }[]).find((earner) => earner.id === seller.id)).toMatchObject({
      email: seller.email,
      count: 1,
      totalCommisions: 5,
    });
  });

  it("refreshes a viral member once for a batch of their sales, and is handed only earnings shards' records", async () => {
    const viral = await member();
    const other = await member();
    const cheap = await product(1000); // $1.00 each
    await placesRefreshed(); // what came before this test is refreshed already
    const refreshes = vi.spyOn(dynamoCommissionStore, 'refreshPlace');
    const handed: string[] = [];
    const watching = async (event: DynamoDBStreamEvent) => {
      handed.push(...event.Records.map((record) => String(record.dynamodb?.Keys?.sk?.S)));
      return refreshPlaces(event);
    };
    for (let start = 0; start < 40; start += 10) {
      await Promise.all(Array.from({ length: 10 }, () => sell(viral, cheap)));
    }
    await sell(other, cheap, 3);
    await placesRefreshed({ handler: watching });
    expect(await placeOf(viral)).toMatchObject({ rankCount: 40, rankCents: 4000 });
    expect(await placeOf(other)).toMatchObject({ rankCount: 1, rankCents: 300 });
    // The stream read from its start: 41 sales' shards (and the earlier tests'), each one a record;
    // the orders, commissions, counters and places themselves are filtered out.
    expect(handed.length).toBeGreaterThanOrEqual(41);
    expect(handed.every((sk) => sk.startsWith('EARNINGS#SHARD#'))).toBe(true);
    // Each member once per batch of up to 100 records: not 40 refreshes for 40 sales.
    const viralRefreshes = refreshes.mock.calls.filter(([memberId]) => memberId === viral.id).length;
    expect(viralRefreshes).toBeGreaterThanOrEqual(1);
    expect(viralRefreshes).toBeLessThanOrEqual(Math.ceil(handed.length / 100));
  });

  it('a place that could not be written comes again from its first change, and is written on the retry', async () => {
    const seller = await member();
    const unlucky = await member();
    const lamp = await product(2000);
    await placesRefreshed();
    await sell(seller, lamp);
    await sell(unlucky, lamp);
    await sell(seller, lamp);
    const unluckyTries = refreshFailingFor(unlucky.id, 1, 'ProvisionedThroughputExceededException');
    const answers: unknown[] = [];
    await placesRefreshed({
      handler: async (event) => {
        const answer = await refreshPlaces(event);
        answers.push(answer);
        return answer;
      },
    });
    expect(unluckyTries()).toBe(2);
    // The first answer named the unlucky member's first record; the batch came again from there.
    expect(answers[0]).toMatchObject({ batchItemFailures: [{ itemIdentifier: expect.any(String) }] });
    expect(answers.at(-1)).toEqual({ batchItemFailures: [] });
    expect(await placeOf(unlucky)).toMatchObject({ rankCount: 1, rankCents: 200 });
    expect(await placeOf(seller)).toMatchObject({ rankCount: 2, rankCents: 400 });
  });

  it('writes the place of a member an operator names by hand (docs/deploy.md, a batch given up on)', async () => {
    const seller = await member();
    await sell(seller, await product(4000));
    const answer = await refreshPlaces({
      Records: [
        {
          dynamodb: {
            Keys: { pk: { S: `USER#${seller.id}` }, sk: { S: 'EARNINGS#SHARD#00' } },
            SequenceNumber: '0',
          },
        },
      ],
    });
    expect(answer).toEqual({ batchItemFailures: [] });
    expect(await placeOf(seller)).toMatchObject({ rankCount: 1, rankCents: 400, memberEmail: seller.email });
  });

  it("a held commission the admin cancels leaves the member's place: its cents out, as a refund's", async () => {
    const { handler: addOrder } = await import('../../functions/src/handlers/add-order');
    const { handler: reviewHeldCommission } = await import('../../functions/src/handlers/review-held-commission');
    const seller = await member();
    const lamp = await product(5000); // commission $5.00
    await sell(seller, lamp);
    // The member's own purchase through their own link: its commission is held for review.
    const own = await call(addOrder, {
      body: { product_id: lamp, qty: 1, ref: seller.shareCode, customer: { ...customer, email: seller.email } },
      headers: auth(admin),
    });
    expect(own.status).toBe(200);
    const commissionId = (own.body as { commission: { id: string } }).commission.id;
    await placesRefreshed();
    expect(await placeOf(seller)).toMatchObject({ rankCount: 2, rankCents: 1000 });
    const held = (await item(keys.commission(commissionId))) ?? {};
    expect(held.status).toBe('review');

    const cancelled = await call(reviewHeldCommission, {
      body: { id: commissionId, decision: 'cancel' },
      headers: auth(admin),
    });
    expect(cancelled.status).toBe(200);
    await placesRefreshed();
    // Counted still (as a refunded one is), its $5.00 out of the total.
    expect(await placeOf(seller)).toMatchObject({ rankCount: 2, rankCents: 500 });
  });

  it("a place that fails every try is given up on after the mapping's tries and sent to the failure destination; the stream goes on", async () => {
    const doomed = await member();
    const fine = await member();
    const lamp = await product(3000);
    await placesRefreshed();
    await sell(doomed, lamp);
    await sell(fine, lamp);
    const doomedTries = refreshFailingFor(doomed.id, Infinity, 'the table did not answer');
    const failures: StreamBatchFailure[] = [];
    await placesRefreshed({ failures });
    // Halved down to the doomed record, then tried 1 + 5 times (MaximumRetryAttempts), then sent on.
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ condition: 'RetryAttemptsExhausted', batchSize: 1, approximateInvokeCount: 6 });
    expect(doomedTries()).toBeGreaterThanOrEqual(6);
    expect(await placeOf(doomed)).toBeUndefined();
    expect(await placeOf(fine)).toMatchObject({ rankCount: 1, rankCents: 300 });
  });
});
