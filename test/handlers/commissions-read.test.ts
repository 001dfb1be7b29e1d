import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../functions/src/adapters/dynamo-client';
import { handler as getCommisions } from '../../functions/src/handlers/get-commissions';
import { handler as getCommisionsByUser } from '../../functions/src/handlers/get-commissions-by-user';
import { handler as getCommisionsToBePayed } from '../../functions/src/handlers/get-commissions-to-be-paid';
import { handler as getCommisionsToStripe } from '../../functions/src/handlers/get-commissions-to-stripe';
import { handler as getTopEarners } from '../../functions/src/handlers/get-top-earners';
import { availableSortKey, keys } from '../../shared/src/db/table';
import { clock } from '../../functions/src/config/clock';

const DAY = 24 * 3600 * 1000;
import { auth, call, tokenFor } from './helpers';
import { addedOrder, markFulfilled, member, product, type Member } from './sales-helpers';
import { placesRefreshed, withTableStream } from './places';

// The top-earners places are written from the table's stream (decision 0481).
await withTableStream();

/** The commission reads over sales recorded through /api/addOrder (this file's own table). */
const admin = await tokenFor(true);

const sell = (seller: Member, productId: string, qty = 1) => addedOrder(admin, seller, productId, qty);

describe('the commission reads', () => {
  const list = async (handler: typeof getCommisions, token = admin, body: Record<string, unknown> = { limit: 500 }) =>
    call(handler, { body, headers: auth(token) });

  it('rank the top earners by their total, highest first, also when one member sells many at once', async () => {
    const [a, b, c] = await Promise.all([member(), member(), member()]);
    const [cheap, dear, small] = await Promise.all([product(3000), product(10_000), product(1000)]);
    await sell(a, cheap); // $3.00
    await sell(b, dear, 2); // $20.00
    await sell(c, dear); // $10.00
    // Five sales of the same member at once: each one ADDs to a shard of their earnings; the places
    // function writes their place from the table's stream.
    await Promise.all(Array.from({ length: 5 }, () => sell(b, small))); // 5 × $1.00
    await placesRefreshed();
    const top = await list(getTopEarners);
    expect(top.status).toBe(200);
    const items = top.body.items as { id: string; email: string; count: number; totalCommisions: number }[];
    expect(items.map((earner) => [earner.email, earner.count, earner.totalCommisions])).toEqual([
      [b.email, 6, 25],
      [c.email, 1, 10],
      [a.email, 1, 3],
    ]);
    const all = await list(getCommisions);
    expect(all.body.totals).toEqual({ paid: 0, processing: 38, count: 8 });
    expect((all.body.items as unknown[]).length).toBe(8);
    const toStripe = await list(getCommisionsToStripe);
    expect(toStripe.body.totals).toEqual({ paid: 0, processing: 38, count: 8 });
    const toBePayed = await list(getCommisionsToBePayed);
    expect(toBePayed.body).toEqual({ items: [], nextCursor: null, totals: { paid: 0, processing: 0, count: 0 } });
    // Pages: one at a time, newest first, ending with a null cursor.
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await list(getCommisions, admin, { limit: 3, ...(cursor ? { cursor } : {}) });
      seen.push(...(page.body.items as { id: string }[]).map((item) => item.id));
      cursor = (page.body.nextCursor as string | null) ?? undefined;
    } while (cursor);
    expect(seen).toEqual((all.body.items as { id: string }[]).map((item) => item.id));
  });

  it("answers a member their own commissions with their totals, another member's with 404, and an admin anyone's", async () => {
    const [mine, other] = await Promise.all([member(), member()]);
    const productId = await product(4550);
    await sell(mine, productId, 2); // 2 × $4.55 (10 % of $45.50)
    const own = await list(getCommisionsByUser, mine.token, { id: mine.id });
    expect(own.status).toBe(200);
    expect(own.body.totals).toEqual({ paid: 0, processing: 9.1, count: 1 });
    expect(own.body.items).toEqual([
      expect.objectContaining({ amount: 9.1, state: 'processing', member: { id: mine.id, email: mine.email } }),
    ]);
    const theirs = await list(getCommisionsByUser, other.token, { id: mine.id });
    expect(theirs.status).toBe(404);
    expect(theirs.body.message).toBe('There are no commissions of this member for you to see.');
    const byAdmin = await list(getCommisionsByUser, admin, { id: mine.id });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.totals).toEqual(own.body.totals);
    const none = await list(getCommisionsByUser, other.token, { id: other.id });
    expect(none.body).toEqual({ items: [], nextCursor: null, totals: { paid: 0, processing: 0, count: 0 } });
  });

  it('list in To Stripe only what can be sent now, and say why the others cannot go yet', async () => {
    const seller = await member();
    const { order, commission } = await sell(seller, await product(2000));
    const find = async (handler: typeof getCommisions) =>
      (
        (await list(handler)).body.items as {
          id: string;
          blockedReason: string | null;
          status: string;
          availableAt: string | null;
        }[]
      ).find((item) => item.id === commission.id);
    // Waiting for fulfilment: in the full list with its reason, not in To Stripe.
    expect(await find(getCommisions)).toMatchObject({
      status: 'waiting_for_fulfilment',
      blockedReason: 'The order is not fulfilled yet.',
      availableAt: null,
    });
    expect(await find(getCommisionsToStripe)).toBeUndefined();
    const fulfilledAt = clock.now();
    await markFulfilled(admin, order.id);
    // On hold for COMMISSION_HOLD_DAYS (14 unless set) after fulfilment: still not in To Stripe.
    const onHold = await find(getCommisions);
    expect(onHold?.status).toBe('on_hold');
    const availableAt = Date.parse(onHold!.availableAt!);
    expect(availableAt - fulfilledAt).toBeGreaterThanOrEqual(14 * DAY);
    expect(availableAt - clock.now()).toBeLessThanOrEqual(14 * DAY);
    expect(onHold?.blockedReason).toMatch(/^On hold until .+ UTC \(the refund window\)/);
    expect(await find(getCommisionsToStripe)).toBeUndefined();

    // The hold ends: its end moved to a moment ago on the stored item, as time passing would leave it
    // (not by moving the clock: a deployed bundle, which the bundles project runs, has its own).
    const ended = Date.now() - 1000;
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.commission(commission.id),
        UpdateExpression: 'SET availableAt = :ended, gsi2sk = :sort',
        ConditionExpression: 'availableAt = :was',
        ExpressionAttributeValues: {
          ':ended': ended,
          ':sort': availableSortKey(ended, commission.id),
          ':was': availableAt,
        },
      }),
    );
    expect(await find(getCommisionsToStripe)).toMatchObject({
      status: 'available',
      blockedReason: 'The member has no payout account yet.',
    });
    const setUser = (expression: string, values: Record<string, unknown>) =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.user(seller.id),
          UpdateExpression: expression,
          ExpressionAttributeValues: values,
        }),
      );
    await setUser('SET stripeID = :id, isAccountCreated = :one', { ':id': 'acct_test', ':one': 1 });
    expect((await find(getCommisionsToStripe))?.blockedReason).toBe('The member has no debit card yet.');
    await setUser('SET isPayoutMethodAdded = :one', { ':one': 1 });
    expect((await find(getCommisionsToStripe))?.blockedReason).toBeNull();
  });
});
