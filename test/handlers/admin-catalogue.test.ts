import { randomBytes } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { handler as approveProduct } from '../../functions/src/handlers/approve-product';
import { handler as banProduct } from '../../functions/src/handlers/ban-product';
import { handler as getApprovedProduct } from '../../functions/src/handlers/get-approved-product';
import { handler as getApprovedProducts } from '../../functions/src/handlers/get-approved-products';
import { handler as getCatalogueProducts } from '../../functions/src/handlers/get-catalogue-products';
import { handler as getPaymentIntent } from '../../functions/src/handlers/get-payment-intent';
import { handler as getSharedProduct } from '../../functions/src/handlers/get-shared-product';
import { handler as getUnApprovedProducts } from '../../functions/src/handlers/get-unapproved-products';
import { handler as returnProductToReview } from '../../functions/src/handlers/return-product-to-review';
import { handler as withdrawProduct } from '../../functions/src/handlers/withdraw-product';
import { handler as addOrder } from '../../functions/src/handlers/add-order';
import { db, tableName } from '../../functions/src/adapters/dynamo-client';
import { dynamoProducts } from '../../functions/src/adapters/products/dynamo-products';
import { decideUpsert } from '../../functions/src/imports/upsert';
import { PRODUCT_WITHDRAWN } from '../../functions/src/products/moderation';
import { WITHDRAWN_PRODUCT } from '../../functions/src/orders/record-sale';
import { keys } from '../../shared/src/db/table';
import { auth, call, tokenFor } from './helpers';
import { member, product } from './sales-helpers';

const admin = await tokenFor(true);
const memberToken = await tokenFor(false);
const stored = async (id: string) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: keys.product(id), ConsistentRead: true }))).Item!;

const catalogue = (body: Record<string, unknown>) => call(getCatalogueProducts, { body, headers: auth(admin) });
const names = (result: { body: Record<string, unknown> }) =>
  (result.body.items as { product_name: string }[]).map((item) => item.product_name);
const ids = (result: { body: Record<string, unknown> }) =>
  (result.body.items as { id: string }[]).map((item) => item.id);
const unique = () => randomBytes(4).toString('hex');

describe('the catalogue lists', () => {
  it('lists approved, banned and withdrawn products by name, paged exactly, and moves them between lists', async () => {
    const tag = unique();
    const approvedIds = [];
    for (const name of ['Delta', 'alpha', 'Charlie', 'bravo', 'Echo']) {
      approvedIds.push(await product(1000, 'approved', `${tag} ${name} lamp`));
    }
    const banned = await product(1000, 'banned', `${tag} Foxtrot lamp`);

    const first = await catalogue({ list: 'approved', search: tag, limit: 2 });
    expect(first.status).toBe(200);
    expect(names(first)).toEqual([`${tag} alpha lamp`, `${tag} bravo lamp`]);
    const second = await catalogue({ list: 'approved', search: tag, limit: 2, cursor: first.body.nextCursor });
    expect(names(second)).toEqual([`${tag} Charlie lamp`, `${tag} Delta lamp`]);
    const third = await catalogue({ list: 'approved', search: tag, limit: 2, cursor: second.body.nextCursor });
    expect(names(third)).toEqual([`${tag} Echo lamp`]);
    expect(third.body.nextCursor).toBeNull();

    expect(ids(await catalogue({ list: 'banned', search: tag }))).toEqual([banned]);
    expect(ids(await catalogue({ list: 'withdrawn', search: tag }))).toEqual([]);

    const withdrawn = await call(withdrawProduct, { body: { id: approvedIds[0] }, headers: auth(admin) });
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body).toEqual({
      id: approvedIds[0],
      status: 'withdrawn',
      // No checkout was open: nothing to cancel at Stripe (test/handlers/abuse.test.ts cancels some).
      openCheckouts: { total: 0, cancelled: 0, paid: 0, notCancelled: 0, done: true },
    });
    expect(names(await catalogue({ list: 'approved', search: tag }))).not.toContain(`${tag} Delta lamp`);
    const inWithdrawn = await catalogue({ list: 'withdrawn', search: tag });
    expect(inWithdrawn.body.items).toEqual([
      expect.objectContaining({ id: approvedIds[0], status: 'withdrawn', product_name: `${tag} Delta lamp` }),
    ]);
  });

  it('finds a product by its exact SPU first, and by the start of its name whatever the case and accents', async () => {
    const tag = unique();
    const id = await product(1000, 'approved', `Café ${tag} Mug`);
    const spu = String((await stored(id)).current.spu_no);
    const bySpu = await catalogue({ list: 'approved', search: ` ${spu} ` });
    expect(ids(bySpu)[0]).toBe(id);
    expect(ids(await catalogue({ list: 'approved', search: `  cafe ${tag.toUpperCase()}  ` }))).toEqual([id]);
    // The SPU of a product in another list finds nothing here.
    expect(ids(await catalogue({ list: 'banned', search: spu }))).toEqual([]);
    // A search that matches nothing is an empty page, not an error.
    const none = await catalogue({ list: 'approved', search: `no such ${tag}` });
    expect(none.body).toEqual({ items: [], nextCursor: null });
  });

  it('refuses a bad request in words', async () => {
    const wrongList = await catalogue({ list: 'everything' });
    expect(wrongList.status).toBe(400);
    expect(wrongList.body.fields).toHaveProperty('list');
    const long = await catalogue({ list: 'approved', search: 'x'.repeat(201) });
    expect(long.status).toBe(400);
    expect((long.body.fields as Record<string, string>).search).toBe('Search with at most 200 characters.');
    const badCursor = await catalogue({ list: 'approved', cursor: 'not-a-cursor' });
    expect(badCursor.status).toBe(400);
    expect(badCursor.body.fields).toHaveProperty('cursor');
    expect((await call(getCatalogueProducts, { body: { list: 'approved' }, headers: auth(memberToken) })).status).toBe(
      403,
    );
  });
});

describe('withdrawing a product', () => {
  it('takes it out of the members’ lists, their detail, the share page, the checkout and addOrder', async () => {
    const tag = unique();
    const id = await product(2599, 'approved', `${tag} Withdrawn lamp`);
    const seller = await member();
    expect((await call(getSharedProduct, { body: { id } })).status).toBe(200);

    expect((await call(withdrawProduct, { body: { id }, headers: auth(admin) })).status).toBe(200);
    const item = await stored(id);
    expect(item).toMatchObject({ status: 'withdrawn', gsi3pk: 'PRODUCTS#CATALOGUE#withdrawn' });
    expect(item).not.toHaveProperty('gsi2pk');

    const approvedIds: string[] = [];
    let cursor: unknown;
    do {
      const page = await call(getApprovedProducts, { body: { limit: 100, cursor }, headers: auth(memberToken) });
      approvedIds.push(...ids(page));
      cursor = page.body.nextCursor ?? undefined;
    } while (cursor);
    expect(approvedIds).not.toContain(id);
    expect((await call(getApprovedProduct, { body: { id }, headers: auth(memberToken) })).status).toBe(404);

    const shared = await call(getSharedProduct, { body: { id, ref: seller.shareCode } });
    expect(shared.status).toBe(404);
    expect(shared.body.message).toBe(PRODUCT_WITHDRAWN);
    const intent = await call(getPaymentIntent, { body: { id, amount: 2599 } });
    expect(intent.status).toBe(404);
    expect(intent.body.message).toBe(PRODUCT_WITHDRAWN);
    const order = await call(addOrder, {
      body: { product_id: id, qty: 1, ref: seller.shareCode },
      headers: auth(admin),
    });
    expect(order.status).toBe(400);
    expect((order.body.fields as Record<string, string>).product_id).toBe(WITHDRAWN_PRODUCT);

    // An import leaves it as it is, like a banned product.
    expect(decideUpsert({ id, status: 'withdrawn', contentHash: String(item.contentHash) }, 'other')).toBe('banned');
  });

  it('answers 409 in words for a product that is not approved, 404 for none, and changes nothing', async () => {
    const banned = await product(1000, 'banned');
    const before = await stored(banned);
    const refused = await call(withdrawProduct, { body: { id: banned }, headers: auth(admin) });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      'This product is banned: members do not see it, so there is nothing to withdraw.',
    );
    expect(await stored(banned)).toEqual(before);

    const inReview = await product(1000, 'review');
    const waiting = await call(withdrawProduct, { body: { id: inReview }, headers: auth(admin) });
    expect(waiting.status).toBe(409);
    expect(waiting.body.message).toMatch(/waiting for review/);

    const missing = await call(withdrawProduct, { body: { id: 'f'.repeat(32) }, headers: auth(admin) });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('There is no product with that id.');
  });

  it('of two admins withdrawing at once, one is answered 200 and the other 409; one move stored', async () => {
    const id = await product(1000, 'approved');
    const results = await Promise.all(
      Array.from({ length: 4 }, () => call(withdrawProduct, { body: { id }, headers: auth(admin) })),
    );
    expect(results.map((result) => result.status).sort()).toEqual([200, 409, 409, 409]);
    for (const lost of results.filter((result) => result.status === 409)) {
      expect(lost.body.message).toBe('This product is already withdrawn: members no longer see it.');
    }
    expect(await stored(id)).toMatchObject({ status: 'withdrawn' });
  });
});

describe('putting a product back into review', () => {
  it('puts a banned or withdrawn product back into review as a new one; approving it publishes it again', async () => {
    const tag = unique();
    const banned = await product(1000, 'banned', `${tag} Banned lamp`);
    const withdrawn = await product(1000, 'approved', `${tag} Withdrawn lamp`);
    expect((await call(withdrawProduct, { body: { id: withdrawn }, headers: auth(admin) })).status).toBe(200);

    for (const id of [banned, withdrawn]) {
      const reopened = await call(returnProductToReview, { body: { id }, headers: auth(admin) });
      expect(reopened.status).toBe(200);
      expect(reopened.body).toEqual({ id, status: 'review' });
      const item = await stored(id);
      expect(item).toMatchObject({ status: 'review', gsi1pk: 'PRODUCTS#REVIEW' });
      for (const gone of ['approved', 'approvedAt', 'gsi2pk', 'gsi3pk', 'bannedAt', 'withdrawnAt']) {
        expect(item).not.toHaveProperty(gone);
      }
      // Members see nothing of it while it waits.
      expect((await call(getApprovedProduct, { body: { id }, headers: auth(memberToken) })).status).toBe(404);
    }
    const review = await call(getUnApprovedProducts, { body: { limit: 100 }, headers: auth(admin) });
    const waiting = (review.body.items as { id: string; hasApprovedVersion: boolean }[]).filter((item) =>
      [banned, withdrawn].includes(item.id),
    );
    expect(waiting).toHaveLength(2);
    expect(waiting.every((item) => !item.hasApprovedVersion)).toBe(true);
    for (const list of ['banned', 'withdrawn']) {
      expect(ids(await catalogue({ list, search: tag }))).toEqual([]);
    }

    const version = String((await stored(withdrawn)).contentHash);
    expect((await call(approveProduct, { body: { id: withdrawn, version }, headers: auth(admin) })).status).toBe(200);
    expect((await call(getApprovedProduct, { body: { id: withdrawn }, headers: auth(memberToken) })).status).toBe(200);
    expect(ids(await catalogue({ list: 'approved', search: tag }))).toEqual([withdrawn]);
    expect((await call(banProduct, { body: { id: banned }, headers: auth(admin) })).status).toBe(200);
    expect(ids(await catalogue({ list: 'banned', search: tag }))).toEqual([banned]);
  });

  it('answers 409 in words for an approved product or one already in review, and changes nothing', async () => {
    const approved = await product(1000, 'approved');
    const before = await stored(approved);
    const refused = await call(returnProductToReview, { body: { id: approved }, headers: auth(admin) });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('This product is approved: withdraw it first if members should stop seeing it.');
    expect(await stored(approved)).toEqual(before);
    const inReview = await product(1000, 'review');
    const again = await call(returnProductToReview, { body: { id: inReview }, headers: auth(admin) });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This product is already waiting for review.');
  });

  it('against an approval of the same product at the same moment: each move applies once, in order', async () => {
    const id = await product(1000, 'banned');
    const [reopened, reopenedAgain] = await Promise.all([
      call(returnProductToReview, { body: { id }, headers: auth(admin) }),
      call(returnProductToReview, { body: { id }, headers: auth(admin) }),
    ]);
    expect([reopened.status, reopenedAgain.status].sort()).toEqual([200, 409]);
    // The adapter decides again after a lost race rather than overwriting.
    expect(await dynamoProducts.move(id, 'ban', new Date().toISOString())).toEqual({
      outcome: 'done',
      status: 'banned',
    });
    expect(await dynamoProducts.move(id, 'ban', new Date().toISOString())).toEqual({
      outcome: 'not-allowed',
      status: 'banned',
    });
  });
});
