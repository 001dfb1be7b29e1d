import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db, tableName } from '../../functions/src/adapters/dynamo-client';
import { signature, startStripeEmulator, type StripeEmulator } from '../../infra/local/stripe';
import { sdk } from '../../infra/local/stripe/testing';
import { allItems, call, uniqueEmail, type CallResult, payoutAccountForm } from './helpers';

/**
 * The webhook as Stripe (here the emulator) calls it: this file starts its own emulator, whose
 * signed events go to a local endpoint that hands them to the webhook handler, and points the
 * functions at it before they are imported.
 */
const secret = 'whsec_webhook_test_secret';
const dataDir = mkdtempSync(join(tmpdir(), 'stripe-webhook-'));
const deliveries: CallResult[] = [];
let emulator: StripeEmulator;
let endpoint: Server;

const { handler: webhook } = await import('../../functions/src/handlers/stripe-webhook');

beforeAll(async () => {
  endpoint = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void call(webhook, {
        rawBody: Buffer.concat(chunks),
        contentType: String(request.headers['content-type']),
        headers: { 'stripe-signature': String(request.headers['stripe-signature']) },
        path: '/api/stripeWebhook',
      }).then((result) => {
        deliveries.push(result);
        response.writeHead(result.status).end(JSON.stringify(result.body));
      });
    });
  });
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
  const { port } = endpoint.address() as AddressInfo;
  emulator = await startStripeEmulator({
    dataDir,
    webhookUrl: `http://127.0.0.1:${port}/api/stripeWebhook`,
    webhookSecret: secret,
    webhookRetryDelaysMs: [],
    log: () => undefined,
  });
  process.env.STRIPE_API_URL = emulator.url;
  process.env.STRIPE_WEBHOOK_SECRET = secret;
});
afterAll(async () => {
  await emulator?.stop();
  await new Promise<void>((resolve) => endpoint?.close(() => resolve()));
  rmSync(dataDir, { recursive: true, force: true });
});

const stored = async (userId: string) => (await allItems()).find((item) => item.id === userId);

/** A member with a payout account at this file's emulator. */
async function memberWithAccount(): Promise<{ userId: string; token: string; accountId: string }> {
  // Imported after beforeAll pointed the functions at this file's emulator.
  const { handler: signup } = await import('../../functions/src/handlers/signup');
  const { handler: create } = await import('../../functions/src/handlers/create-payout-account');
  const signed = await call(signup, { body: { email: uniqueEmail('webhook'), password: 'long enough password' } });
  const token = String(signed.body.access_token);
  const created = await call(create, { body: payoutAccountForm, headers: { authorization: `Bearer ${token}` } });
  expect(created.status).toBe(200);
  const user = created.body.user as { id: string; stripeID: string };
  return { userId: user.id, token, accountId: user.stripeID };
}

/** Events made here happen after the account's creation: `created` from a minute on, one second apart. */
let eventClock = Math.floor(Date.now() / 1000) + 60;
const accountEvent = (
  id: string,
  accountId: string,
  userId: string,
  payoutsEnabled: boolean,
  created: number = eventClock++,
) =>
  JSON.stringify({
    id,
    object: 'event',
    type: 'account.updated',
    created,
    data: {
      object: {
        id: accountId,
        object: 'account',
        metadata: { userId },
        payouts_enabled: payoutsEnabled,
        capabilities: { transfers: 'active' },
        requirements: { currently_due: payoutsEnabled ? [] : ['external_account'] },
      },
    },
  });

const post = (body: string, header: string) =>
  call(webhook, { rawBody: body, headers: { 'stripe-signature': header }, path: '/api/stripeWebhook' });
const now = () => Math.floor(Date.now() / 1000);

describe('/api/stripeWebhook', () => {
  it("keeps the user's payout state current from the emulator's account.updated events", async () => {
    const { userId, token, accountId } = await memberWithAccount();
    const { handler: addPayoutMethod } = await import('../../functions/src/handlers/add-payout-method');
    const card = await sdk(emulator.port, process.env.STRIPE_SECRET_KEY).tokens.create({
      card: { number: '4000056655665556', exp_month: '12', exp_year: '2034', cvc: '123', currency: 'usd' },
    });
    const added = await call(addPayoutMethod, {
      body: { id: accountId, token: card.id },
      headers: { authorization: `Bearer ${token}` },
    });
    expect(added.status).toBe(200);
    await emulator.idle();
    expect(deliveries.length).toBeGreaterThan(0);
    expect(deliveries.every((delivery) => delivery.status === 200)).toBe(true);
    expect((await stored(userId))?.payoutAccount).toMatchObject({
      requirementsDue: [],
      transfers: 'active',
      payoutsEnabled: true,
    });
  });

  it('ignores an event it has processed: a redelivery changes nothing', async () => {
    const { userId, accountId } = await memberWithAccount();
    const enabled = accountEvent(`evt_enabled_${userId}`, accountId, userId, true);
    const disabled = accountEvent(`evt_disabled_${userId}`, accountId, userId, false);
    expect((await post(enabled, signature(enabled, secret, now()))).status).toBe(200);
    expect((await stored(userId))?.payoutAccount).toMatchObject({ payoutsEnabled: true });
    expect((await post(disabled, signature(disabled, secret, now()))).status).toBe(200);
    expect((await stored(userId))?.payoutAccount).toMatchObject({ payoutsEnabled: false });
    const again = await post(enabled, signature(enabled, secret, now()));
    expect(again.status).toBe(200);
    expect((await stored(userId))?.payoutAccount).toMatchObject({
      payoutsEnabled: false,
      requirementsDue: ['external_account'],
    });
    const marker = (await allItems()).find((item) => item.pk === `STRIPE_EVENT#evt_enabled_${userId}`);
    expect(Number(marker?.expiresAt)).toBeGreaterThan(now());
  });

  it('keeps the newer state when an older account.updated arrives late, and stores when Stripe said it', async () => {
    const { userId, accountId } = await memberWithAccount();
    const older = eventClock++;
    const newer = eventClock++;
    const newerEvent = accountEvent(`evt_newer_${userId}`, accountId, userId, true, newer);
    const olderEvent = accountEvent(`evt_older_${userId}`, accountId, userId, false, older);
    expect((await post(newerEvent, signature(newerEvent, secret, now()))).status).toBe(200);
    expect((await stored(userId))?.payoutAccount).toMatchObject({ payoutsEnabled: true, asOf: newer });
    // Delivered after the newer one, though it happened before: acknowledged (200), and ignored.
    expect((await post(olderEvent, signature(olderEvent, secret, now()))).status).toBe(200);
    expect((await stored(userId))?.payoutAccount).toMatchObject({
      payoutsEnabled: true,
      requirementsDue: [],
      asOf: newer,
    });
  });

  it('reads the account from Stripe when two events share a second, since created cannot order them', async () => {
    const { userId, accountId } = await memberWithAccount();
    const second = eventClock++;
    // The first claims payouts are enabled; the account at the emulator has no card, so they are not.
    const first = accountEvent(`evt_same_a_${userId}`, accountId, userId, true, second);
    const then = accountEvent(`evt_same_b_${userId}`, accountId, userId, false, second);
    expect((await post(first, signature(first, secret, now()))).status).toBe(200);
    expect((await stored(userId))?.payoutAccount).toMatchObject({ payoutsEnabled: true, asOf: second });
    expect((await post(then, signature(then, secret, now()))).status).toBe(200);
    expect((await stored(userId))?.payoutAccount).toMatchObject({
      payoutsEnabled: false,
      requirementsDue: ['external_account'],
      asOf: second,
    });
  });

  it('refuses a correctly signed body that is not JSON with 400, changing nothing and claiming nothing', async () => {
    const { userId } = await memberWithAccount();
    const before = await allItems();
    for (const body of ['{"id":"evt_cut_short","type":"account.upd', 'id=evt_form&type=account.updated']) {
      // The HTTP layer refuses it before the signature is looked at, whatever the content type says.
      for (const [contentType, message] of [
        ['application/json; charset=utf-8', 'The request body is not valid JSON.'],
        [null, 'Send the request body as JSON, with the header Content-Type: application/json.'],
      ] as const) {
        const answer = await call(webhook, {
          rawBody: body,
          contentType,
          headers: { 'stripe-signature': signature(body, secret, now()) },
          path: '/api/stripeWebhook',
        });
        expect(answer.status).toBe(400);
        expect(answer.body.message).toBe(message);
      }
    }
    expect((await stored(userId))?.payoutAccount).toBeDefined();
    expect(await allItems()).toEqual(before);
  });

  it('answers 409 to an account.updated that outruns the account’s stored id, keeps no claim, and applies the redelivery once', async () => {
    const { userId, accountId } = await memberWithAccount();
    const key = { pk: `USER#${userId}`, sk: 'PROFILE' };
    // The account exists at Stripe, but its creation's write has not landed: no stripeID yet.
    await db().send(
      new UpdateCommand({ TableName: tableName(), Key: key, UpdateExpression: 'REMOVE stripeID, payoutAccount' }),
    );
    const before = await allItems();
    const event = accountEvent(`evt_early_${userId}`, accountId, userId, true);
    const early = await post(event, signature(event, secret, now()));
    expect(early.status).toBe(409);
    expect(early.body.message).toBe('The payout account of this event is not stored yet.');
    expect(await allItems()).toEqual(before);

    // The creation's write lands; Stripe delivers the event again.
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'SET stripeID = :id',
        ExpressionAttributeValues: { ':id': accountId },
      }),
    );
    expect((await post(event, signature(event, secret, now()))).status).toBe(200);
    const applied = (await stored(userId))?.payoutAccount;
    expect(applied).toMatchObject({ payoutsEnabled: true, requirementsDue: [], transfers: 'active' });
    expect((await allItems()).filter((item) => item.pk === `STRIPE_EVENT#evt_early_${userId}`)).toHaveLength(1);
    // A third delivery is a duplicate: nothing changes.
    expect((await post(event, signature(event, secret, now()))).status).toBe(200);
    expect((await stored(userId))?.payoutAccount).toEqual(applied);
  });

  it('acknowledges an account.updated for an account the user does not hold (another or a wiped one), changing nothing', async () => {
    const { userId } = await memberWithAccount();
    const before = await stored(userId);
    const event = accountEvent(`evt_other_${userId}`, 'acct_notTheirs000001', userId, true);
    expect((await post(event, signature(event, secret, now()))).status).toBe(200);
    expect(await stored(userId)).toEqual(before);
  });

  it('refuses a wrong secret, a changed body, a missing header and a signature older than 300 s, changing nothing', async () => {
    const { userId, accountId } = await memberWithAccount();
    const before = (await stored(userId))?.payoutAccount;
    const body = accountEvent(`evt_forged_${userId}`, accountId, userId, true);
    for (const [raw, header] of [
      [body, signature(body, 'whsec_someone_else', now())],
      [body.replace('"payouts_enabled":true', '"payouts_enabled":false'), signature(body, secret, now())],
      [body, signature(body, secret, now() - 301)],
    ] as const) {
      const answer = await post(raw, header);
      expect(answer.status).toBe(400);
      expect(answer.body.message).toBe('The webhook signature does not match.');
    }
    const missing = await call(webhook, { rawBody: body, path: '/api/stripeWebhook' });
    expect(missing.status).toBe(400);
    expect((await stored(userId))?.payoutAccount).toEqual(before);
    expect((await allItems()).some((item) => item.pk === `STRIPE_EVENT#evt_forged_${userId}`)).toBe(false);
  });
});
