import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeEmulator, type StripeEmulator } from '../../infra/local/stripe';
import { sdk } from '../../infra/local/stripe/testing';
import { s3Events } from './catalogue-helpers';
import { createCommission } from './commission-fixtures';
import { allItems, auth, call, payoutAccountForm, tokenFor, uniqueEmail } from './helpers';

/**
 * Reconciliation (reconcile): our ledger against the emulator's, on the demo's data as a fresh
 * `npm start` seeds it (accounts, catalogue, member, sales with transfers, reversals, refunds,
 * clawbacks and payouts, the payouts demo). This file's own table and emulator, so Stripe's
 * objects are the seed's and the tests' alone; the emulator sends no webhooks here, so what is
 * made at Stripe by hand never reaches the table.
 */
const EMAIL = 'member@example.com';
const dataDir = mkdtempSync(join(tmpdir(), 'reconcile-'));
let emulator: StripeEmulator;
let admin: string;
let reconcileHandler: Parameters<typeof call>[0];

beforeAll(async () => {
  emulator = await startStripeEmulator({ dataDir, secretKey: process.env.STRIPE_SECRET_KEY, log: () => undefined });
  // Before the functions make their Stripe client.
  process.env.STRIPE_API_URL = emulator.url;
  const { ensureAccount } = await import('../../infra/local/accounts');
  const { seedDemoCatalogue } = await import('../../infra/local/demo-catalogue');
  const { seedDemoMember } = await import('../../infra/local/demo-member');
  const { seedDemoSales } = await import('../../infra/local/demo-sales');
  const { seedDemoPayouts } = await import('../../infra/local/demo-payouts');
  await ensureAccount(EMAIL, 'member-demo-password', false);
  await seedDemoCatalogue({
    origin: 'http://localhost:3000',
    imagesDir: join(dataDir, 'images'),
    afterUpload: () => s3Events.idle(),
  });
  const settings = { stripeApiUrl: emulator.url, stripeSecretKey: process.env.STRIPE_SECRET_KEY! };
  await seedDemoMember({ email: EMAIL, ...settings });
  expect(await seedDemoSales({ memberEmail: EMAIL, ...settings })).toMatchObject({ seeded: true, moneyMoved: true });
  expect(await seedDemoPayouts({ memberEmail: EMAIL, stripeApiUrl: emulator.url })).toMatchObject({ seeded: true });
  admin = await tokenFor(true);
  reconcileHandler = (await import('../../functions/src/handlers/reconcile')).handler;
}, 240_000);
afterAll(async () => {
  await emulator?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const stripe = (): Stripe => sdk(emulator.port, process.env.STRIPE_SECRET_KEY);
const today = () => new Date().toISOString().slice(0, 10);
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

interface Difference {
  kind: string;
  subject: string;
  text: string;
  stripeIds: string[];
  ledgerIds: string[];
}
interface Result {
  checked: Record<string, number>;
  differences: Difference[];
}

async function reconcile(from = daysAgo(70), to = today()): Promise<Result> {
  const result = await call(reconcileHandler, { body: { from, to }, headers: auth(admin) });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.body as unknown as Result;
}

describe('reconcile', () => {
  it('lists no difference on the demo’s data, having compared every kind of money object', async () => {
    const { checked, differences } = await reconcile();
    expect(differences).toEqual([]);
    // The demo moved money of every kind through the emulator: all of it was compared.
    expect(checked.orders).toBe(36);
    for (const kind of ['charges', 'refunds', 'transfers', 'reversals', 'payouts', 'accounts', 'commissions']) {
      expect(checked[kind], kind).toBeGreaterThan(0);
    }
  });

  it('lists exactly a transfer made by hand in Stripe, in words, with the ids on both sides', async () => {
    const { stripeID } = await demoMember();
    const transfer = await stripe().transfers.create({ amount: 1200, currency: 'usd', destination: stripeID });
    const { differences } = await reconcile();
    expect(differences).toEqual([
      {
        kind: 'missing_in_ledger',
        subject: 'transfer',
        text: `Transfer ${transfer.id} of $12.00 to ${stripeID} (member Dana Demo) on ${today()} is in Stripe but not in our ledger.`,
        stripeIds: [transfer.id, stripeID],
        ledgerIds: [],
      },
    ]);
    // A period that ended before it was made does not list it: it belongs to today.
    expect((await reconcile(daysAgo(70), daysAgo(1))).differences.map((one) => one.stripeIds[0])).not.toContain(
      transfer.id,
    );
    // Undone by hand as well (a reversal of our own making is a difference too): reversed in full, then listed both.
    await stripe().transfers.createReversal(transfer.id);
    const after = (await reconcile()).differences;
    expect(after.map((one) => [one.subject, one.kind])).toEqual([
      ['transfer', 'missing_in_ledger'],
      ['reversal', 'missing_in_ledger'],
    ]);
    expect(after[1]!.text).toMatch(
      new RegExp(`^Reversal trr_\\w+ of \\$12\\.00 of transfer ${transfer.id} to ${stripeID} `),
    );
  });

  it('lists a refund made in Stripe that no webhook brought to our ledger, naming the order', async () => {
    const before = (await reconcile()).differences.length;
    const order = await aPaidOrderWithoutRefunds();
    const refund = await stripe().refunds.create({ payment_intent: order.paymentIntentId, amount: 100 });
    const differences = (await reconcile()).differences;
    expect(differences).toHaveLength(before + 1);
    expect(differences.filter((one) => one.subject === 'refund')).toEqual([
      {
        kind: 'missing_in_ledger',
        subject: 'refund',
        text: `Refund ${refund.id} of $1.00 of charge ${String(refund.charge)} (order ${order.orderID}) on ${today()} is in Stripe but not in our ledger.`,
        stripeIds: [refund.id, String(refund.charge)],
        ledgerIds: [order.orderID],
      },
    ]);
  });

  it('lists a commission paid in our ledger whose payout failed in Stripe, when payout.failed never came', async () => {
    const before = (await reconcile()).differences.length;
    // A member paid to the card that takes payouts and fails them (4000056655665572).
    const { handler: signup } = await import('../../functions/src/handlers/signup');
    const { handler: create } = await import('../../functions/src/handlers/create-payout-account');
    const { handler: addPayoutMethod } = await import('../../functions/src/handlers/add-payout-method');
    const { handler: send } = await import('../../functions/src/handlers/add-commission-to-stripe');
    const { handler: pay } = await import('../../functions/src/handlers/pay-commission-to-member');
    const email = uniqueEmail('recon');
    const signed = await call(signup, { body: { email, password: 'long enough password' } });
    const token = String(signed.body.access_token);
    const memberId = String((signed.body.userProfile as { id: string }).id);
    const created = await call(create, { body: payoutAccountForm, headers: auth(token) });
    const accountId = String((created.body.user as { stripeID: string }).stripeID);
    const card = await stripe().tokens.create({
      card: { number: '4000056655665572', exp_month: '12', exp_year: '2034', cvc: '123', currency: 'usd' },
    });
    expect(
      (await call(addPayoutMethod, { body: { id: accountId, token: card.id }, headers: auth(token) })).status,
    ).toBe(200);
    const commission = await createCommission({ memberId, memberEmail: email, amountCents: 1500 });
    expect((await call(send, { body: { id: commission.id }, headers: auth(admin) })).status).toBe(200);
    expect((await call(pay, { body: { id: commission.id }, headers: auth(admin) })).status).toBe(200);
    // The card network answers later: the payout fails at Stripe; no webhook reaches this table.
    await emulator.idle();
    const [payout] = (await stripe().payouts.list({ limit: 1 }, { stripeAccount: accountId })).data;
    expect(payout).toMatchObject({ status: 'failed', metadata: { commissionId: commission.id } });

    const differences = (await reconcile()).differences;
    expect(differences).toHaveLength(before + 1);
    const stored = (await allItems()).find((one) => one.pk === `COMMISSION#${commission.id}`)!;
    expect(differences.filter((one) => one.subject === 'payout')).toEqual([
      {
        kind: 'status',
        subject: 'payout',
        text: `Commission ${commission.id} (order ${String(stored.orderID)}, member Jenny Rosen) is paid in our ledger but payout ${payout!.id} of $15.00 is failed in Stripe (The bank could not process this payout.).`,
        stripeIds: [payout!.id, accountId],
        ledgerIds: [commission.id, String(stored.orderID)],
      },
    ]);
  });

  it('refuses a bad period with 400 in words at the field, and a member with 403', async () => {
    const refused = async (body: object, field: string, words: RegExp) => {
      const result = await call(reconcileHandler, { body, headers: auth(admin) });
      expect(result.status).toBe(400);
      const fields = result.body.fields as Record<string, string>;
      expect(fields[field], JSON.stringify(result.body)).toMatch(words);
    };
    await refused({ from: '2026-13-01', to: '2026-11-02' }, 'from', /YYYY-MM-DD/);
    await refused({ from: '2026-02-30', to: '2026-03-02' }, 'from', /YYYY-MM-DD/);
    await refused({ from: '2026-11-01', to: 'yesterday' }, 'to', /YYYY-MM-DD/);
    await refused({ from: '2026-11-20', to: '2026-11-01' }, 'to', /ends before it starts.*2026-11-20/);
    await refused({ from: '2026-01-01', to: '2026-11-01' }, 'to', /at most 92 days; this one is 305/);
    await refused({ to: '2026-11-01' }, 'from', /required/);
    await refused({ from: '2026-11-01', to: '2026-11-02', all: true }, 'all', /Unknown field/);
    const member = await call(reconcileHandler, {
      body: { from: '2026-11-01', to: '2026-11-02' },
      headers: auth(await tokenFor(false)),
    });
    expect(member.status).toBe(403);
  });
});

async function demoMember(): Promise<{ id: string; stripeID: string }> {
  const user = (await allItems()).find((item) => item.entity === 'User' && item.email === EMAIL);
  if (!user || typeof user.stripeID !== 'string') throw new Error('the demo member has no payout account');
  return { id: String(user.id), stripeID: user.stripeID };
}

async function aPaidOrderWithoutRefunds(): Promise<{ orderID: string; paymentIntentId: string }> {
  const order = (await allItems()).find(
    (item) => item.pk === `ORDER#${String(item.id)}` && typeof item.paymentIntentId === 'string' && !item.refundIds,
  );
  if (!order) throw new Error('the demo has no card order without refunds');
  return { orderID: String(order.orderID), paymentIntentId: String(order.paymentIntentId) };
}
