import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../shared/src/db/table';
import { db, tableName } from '../../functions/src/adapters/dynamo-client';
import { signature, type StripeEmulator } from '../../infra/local/stripe';
import { InstantPayoutsControl } from '../../infra/local/stripe/testing';
import { IN_BATCH } from '../../functions/src/commissions/money-movement';
import { COUNTERS_KEY, commissionKey, createCommission, earningsKey, item } from './commission-fixtures';
import { asFunction, auth, call, tokenFor, type CallResult } from './helpers';
import { mailsTo as mailsInOutbox } from './outbox';
import { fundPlatform, ownStripe, toEndpointOf, type OwnStripe } from './own-stripe';
import { payableMember, type PayableMember } from './sales-helpers';

/**
 * The payout batches (commissions/batches.ts) through the real `stripe` SDK against this file's
 * own emulator, whose ledger is the witness: how many transfers and payouts each member got, of
 * what amounts, and which commissions each batch carried in the table.
 */
const secret = 'whsec_payout_batches_secret';
const connectSecret = 'whsec_payout_batches_connect_secret';
let own: OwnStripe | undefined;
let emulator: StripeEmulator;
let stripe: Stripe;
let admin: string;
let dropConnect = false;
const OPS = 'payout-batches-ops@example.com';
/** Whether Stripe lets this platform make instant payouts (a test turns it off). */
const instantPayouts = new InstantPayoutsControl();
process.env.ADMIN_MAIL_TO = OPS;

const { handler: webhook } = await import('../../functions/src/handlers/stripe-webhook');
const { handler: connectWebhook } = await import('../../functions/src/handlers/stripe-connect-webhook');
const { handler: addToStripe } = await import('../../functions/src/handlers/add-commission-to-stripe');
const { handler: payToMember } = await import('../../functions/src/handlers/pay-commission-to-member');
const { handler: runBatch } = await import('../../functions/src/handlers/run-payout-batch');
const { handler: quoteHandler } = await import('../../functions/src/handlers/get-withdrawal-quote');
const { handler: withdrawHandler } = await import('../../functions/src/handlers/withdraw');
const { payoutBatches } = await import('../../functions/src/composition');

beforeAll(async () => {
  const post = toEndpointOf(webhook, connectWebhook);
  own = await ownStripe('payout-batches', {
    secrets: { account: secret, connect: connectSecret },
    receive: async ({ path, body, signature }) =>
      // A test that decides which payout events arrive acknowledges the emulator's own and drops them.
      path === '/api/stripeConnectWebhook' && dropConnect ? { status: 200, body: {} } : post(body, signature),
    webhookRetryDelaysMs: [50, 200],
    instantPayouts,
  });
  ({ emulator, stripe } = own);
  admin = await tokenFor(true);
  // The platform's available balance pays the batches' transfers.
  await fundPlatform(stripe, 2_000_000);
});

afterAll(() => own?.stop());

type Member = PayableMember;

/** A member with a payout account and a debit card (instant payouts unless `card` says otherwise). */
const member = (card?: string) => payableMember(stripe, { card });

const commissionFor = (who: Member, amountCents: number, chargeId?: string) =>
  createCommission({ memberId: who.id, memberEmail: who.email, amountCents, ...(chargeId ? { chargeId } : {}) });

const batch = (step: 'send' | 'pay', memberId?: string, requestId = randomUUID()) =>
  call(runBatch, { body: { step, requestId, ...(memberId ? { memberId } : {}) }, headers: auth(admin) });

const transfersTo = async (accountId: string) =>
  (await stripe.transfers.list({ destination: accountId, limit: 100 })).data;
const payoutsOf = async (accountId: string) =>
  (await stripe.payouts.list({ limit: 100 }, { stripeAccount: accountId })).data;

const counters = async () => (await item(COUNTERS_KEY)) as Record<string, number>;
const platformAvailable = async () =>
  (await stripe.balance.retrieve()).available.find((entry) => entry.currency === 'usd')?.amount ?? 0;
/** A card sale at the emulator (its charge is what a commission's transfer names). */
const sale = (amount: number, paymentMethod = 'pm_card_visa') =>
  stripe.paymentIntents.create({ amount, currency: 'usd', payment_method: paymentMethod, confirm: true });
const delta = (after: Record<string, number>, before: Record<string, number>, names: string[]) =>
  Object.fromEntries(names.map((name) => [name, (after[name] ?? 0) - (before[name] ?? 0)]));
const MOVING = ['toStripeCount', 'toStripeCents', 'toBePaidCount', 'toBePaidCents', 'paidCents', 'processingCents'];

async function owe(memberId: string, owedCents: number) {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.memberOwed(memberId), entity: 'member-owed', memberId, owedCents },
    }),
  );
}

/** Posts a connected account's event to the Connect endpoint, freshly signed: a delivery or a redelivery. */
const deliverConnect = (payload: string) =>
  call(connectWebhook, {
    rawBody: payload,
    headers: { 'stripe-signature': signature(payload, connectSecret, Math.floor(Date.now() / 1000)) },
    path: '/api/stripeConnectWebhook',
  });

/** The emulator's one event of `type` about the member's payout, as Stripe delivered it (its replays are this payload). */
async function payoutEvent(type: 'payout.paid' | 'payout.failed', payout: Stripe.Payout, accountId: string) {
  const events = await stripe.events.list({ type, limit: 100 }, { stripeAccount: accountId });
  const found = events.data.filter((event) => (event.data.object as Stripe.Payout).id === payout.id);
  expect(found).toHaveLength(1);
  return JSON.stringify(found[0]);
}

/** Moves the emulator's clock to the arrival date of the member's payouts in transit: Stripe pays them then (payout.paid). */
async function arrive(accountId: string) {
  await emulator.idle();
  const arrivals = (await payoutsOf(accountId)).filter((p) => p.status === 'in_transit').map((p) => p.arrival_date);
  expect(arrivals.length).toBeGreaterThan(0);
  await emulator.clock.advance(Math.max(0, Math.max(...arrivals) * 1000 - emulator.clock.now()));
  await emulator.idle();
}

/** The mails to an address in the handlers' outbox, without sign-up's verification mail. */
const mailsTo = (email: string) =>
  mailsInOutbox(email).filter((mail) => !mail.subject.startsWith('Verify your e-mail'));

/** What Stripe billed the platform for an instant payout (its `stripe_fee` balance transaction naming the payout), in cents. */
async function platformFeeFor(payoutId: string): Promise<number> {
  const fees = (await stripe.balanceTransactions.list({ type: 'stripe_fee', limit: 100 })).data;
  const found = fees.filter((fee) => fee.description?.includes(payoutId));
  expect(found).toHaveLength(1);
  return -found[0]!.amount;
}

const outcomeOf = (answer: CallResult) => (answer.body.outcomes as Record<string, unknown>[])[0]!;

describe('/api/runPayoutBatch for one member', () => {
  it('"Pay all": one transfer per card sale, each naming its charge, under one transfer group; one payout of everything, the batch listing them', async () => {
    const who = await member();
    // Three card sales whose funds are available (as a sale's are by the time its commission is).
    const charges = [];
    for (const amount of [10_000, 20_000, 30_000])
      charges.push(String((await sale(amount, 'pm_card_bypassPending')).latest_charge));
    const a = await commissionFor(who, 1000, charges[0]);
    const b = await commissionFor(who, 2345, charges[1]);
    const c = await commissionFor(who, 655, charges[2]);
    const sentAlone = await commissionFor(who, 500);
    expect((await call(addToStripe, { body: { id: sentAlone.id }, headers: auth(admin) })).status).toBe(200);
    const before = await counters();
    const earningsBefore = (await item(earningsKey(who.id))) as Record<string, number>;
    const platformBefore = await platformAvailable();

    const requestId = randomUUID();
    const answer = await batch('pay', who.id, requestId);
    expect(answer.status).toBe(200);
    expect(outcomeOf(answer)).toMatchObject({
      state: 'paid',
      commissionCount: 4,
      amount: 45,
      transfer: 40,
      payout: 45,
    });

    // The emulator's ledger: three transfers, each from its own charge, in one group.
    const transfers = (await transfersTo(who.accountId)).filter((t) => t.metadata.batchId === `admin-${requestId}`);
    expect(transfers.map((t) => [t.source_transaction, t.amount]).sort()).toEqual(
      [
        [charges[0], 1000],
        [charges[1], 2345],
        [charges[2], 655],
      ].sort(),
    );
    expect(new Set(transfers.map((t) => t.transfer_group))).toEqual(new Set([`batch:admin-${requestId}:${who.id}`]));
    expect(await platformAvailable()).toBe(platformBefore - 4000);
    expect(await transfersTo(who.accountId)).toHaveLength(4); // the per-commission one and the batch's three
    const payouts = await payoutsOf(who.accountId);
    expect(payouts.map((p) => [p.amount, p.metadata?.batchId])).toEqual([[4500, `admin-${requestId}`]]);
    expect(outcomeOf(answer).transferIds).toEqual(expect.arrayContaining(transfers.map((t) => t.id)));

    const stored = await item(keys.payoutBatch(`admin-${requestId}`, who.id));
    expect(stored).toMatchObject({ state: 'paid', payoutId: payouts[0]!.id });
    expect((stored!.commissions as { id: string }[]).map((one) => one.id).sort()).toEqual(
      [a.id, b.id, c.id, sentAlone.id].sort(),
    );
    // Each commission names its own sale's transfer.
    for (const [commission, charge] of [
      [a, charges[0]],
      [b, charges[1]],
      [c, charges[2]],
    ] as const) {
      const own = transfers.find((t) => t.source_transaction === charge)!;
      expect(await item(commissionKey(commission.id))).toMatchObject({ transferId: own.id });
    }
    for (const id of [a.id, b.id, c.id, sentAlone.id]) {
      const commission = await item(commissionKey(id));
      expect(commission).toMatchObject({ status: 'paid', isPayed: 1, payoutId: payouts[0]!.id });
      expect(commission?.batchId).toBeUndefined();
    }
    expect(delta(await counters(), before, MOVING)).toEqual({
      toStripeCount: -3,
      toStripeCents: -4000,
      toBePaidCount: -1,
      toBePaidCents: -500,
      paidCents: 4500,
      processingCents: -4500,
    });
    const earningsAfter = (await item(earningsKey(who.id))) as Record<string, number>;
    expect(earningsAfter.paidCents! - (earningsBefore.paidCents ?? 0)).toBe(4500);
    // The lock is free again.
    expect(await item(keys.payoutLock(who.id))).toBeUndefined();
    // Again: nothing left.
    const again = await batch('pay', who.id);
    expect(outcomeOf(again)).toMatchObject({ state: 'empty' });
    expect(await transfersTo(who.accountId)).toHaveLength(4);
  });

  it('"Send all available" with one card sale names its charge as source_transaction and leaves it to be paid', async () => {
    const who = await member();
    const sale = await stripe.paymentIntents.create({
      amount: 5000,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
    });
    const chargeId = String(sale.latest_charge);
    const commission = await commissionFor(who, 500, chargeId);
    const answer = await batch('send', who.id);
    expect(answer.status).toBe(200);
    expect(outcomeOf(answer)).toMatchObject({ state: 'sent', transfer: 5, payout: 0 });
    const [transfer] = await transfersTo(who.accountId);
    expect(transfer).toMatchObject({ amount: 500, source_transaction: chargeId });
    const stored = await item(commissionKey(commission.id));
    expect(stored).toMatchObject({
      status: 'in_stripe',
      transferId: transfer!.id,
      gsi2pk: 'COMMISSIONS#STAGE#to_be_paid',
    });
    expect(stored?.batchId).toBeUndefined();
    expect(await payoutsOf(who.accountId)).toEqual([]);
  });

  it('moves money once for 50 concurrent "Pay all" calls: one transfer, one payout; the others answer in words', async () => {
    const who = await member();
    for (const amount of [1100, 1200, 1300]) await commissionFor(who, amount);
    const answers = await Promise.all(Array.from({ length: 50 }, () => batch('pay', who.id)));
    for (const answer of answers) {
      if (answer.status === 200) expect(['paid', 'empty']).toContain(outcomeOf(answer).state);
      else {
        expect(answer.status).toBe(409);
        expect(String(answer.body.message)).toMatch(/already under way/);
      }
    }
    expect(answers.filter((a) => a.status === 200 && outcomeOf(a).state === 'paid')).toHaveLength(1);
    expect((await transfersTo(who.accountId)).map((t) => t.amount)).toEqual([3600]);
    expect((await payoutsOf(who.accountId)).map((p) => p.amount)).toEqual([3600]);
  });

  it('heals a crash between the transfer and the table: per-commission buttons refuse meanwhile, the retry completes with the same transfer', async () => {
    const who = await member();
    const one = await commissionFor(who, 1500);
    const two = await commissionFor(who, 2500);
    const before = await counters();
    const real = payoutBatches.batches.recordTransfer;
    payoutBatches.batches.recordTransfer = () => {
      payoutBatches.batches.recordTransfer = real;
      return Promise.reject(new Error('the table write failed after the transfer'));
    };
    const requestId = randomUUID();
    const crashed = await batch('pay', who.id, requestId);
    expect(crashed.status).toBe(500);
    expect(payoutBatches.batches.recordTransfer).toBe(real);
    expect((await transfersTo(who.accountId)).map((t) => t.amount)).toEqual([4000]);
    expect(await item(commissionKey(one.id))).toMatchObject({ status: 'processing', batchId: `admin-${requestId}` });

    // The spec's per-commission buttons cannot move what the batch holds.
    const single = await call(addToStripe, { body: { id: one.id }, headers: auth(admin) });
    expect(single.status).toBe(409);
    expect(single.body.message).toBe(IN_BATCH);
    // Another batch meanwhile: the open one is resumed first (not busy: the crashed run paused it).
    const retried = await batch('pay', who.id, requestId);
    expect(retried.status).toBe(200);
    expect(outcomeOf(retried)).toMatchObject({ state: 'paid', transfer: 40, payout: 40 });
    expect((await transfersTo(who.accountId)).map((t) => t.amount)).toEqual([4000]);
    expect((await payoutsOf(who.accountId)).map((p) => p.amount)).toEqual([4000]);
    for (const id of [one.id, two.id]) expect(await item(commissionKey(id))).toMatchObject({ status: 'paid' });
    expect(delta(await counters(), before, MOVING)).toMatchObject({ toStripeCount: -2, paidCents: 4000 });
  });

  it('heals a crash between the payout and the table: any later batch for the member resumes it, one payout', async () => {
    // Stripe's payout.paid would complete the batch too (below): dropped here, so the later batch is what heals it.
    dropConnect = true;
    onTestFinished(() => {
      dropConnect = false;
    });
    const who = await member();
    const commission = await commissionFor(who, 1800);
    const real = payoutBatches.batches.recordPayout;
    payoutBatches.batches.recordPayout = () => {
      payoutBatches.batches.recordPayout = real;
      return Promise.reject(new Error('the table write failed after the payout'));
    };
    const first = randomUUID();
    expect((await batch('pay', who.id, first)).status).toBe(500);
    expect((await payoutsOf(who.accountId)).map((p) => p.amount)).toEqual([1800]);
    // In Stripe and held by the batch: its own "Pay" button refuses rather than paying it twice.
    const single = await call(payToMember, { body: { id: commission.id }, headers: auth(admin) });
    expect(single.status).toBe(409);
    expect(single.body.message).toBe(IN_BATCH);
    // A new request (another admin's click): it finishes the open batch first, with the same payout.
    const later = await batch('pay', who.id);
    expect(later.status).toBe(200);
    expect((await payoutsOf(who.accountId)).map((p) => p.amount)).toEqual([1800]);
    expect(await item(keys.payoutBatch(`admin-${first}`, who.id))).toMatchObject({ state: 'paid' });
    expect(await item(keys.payoutLock(who.id))).toBeUndefined();
  });
});

describe('netting against the member’s clawback debt', () => {
  it('takes the debt from the transfer, to the cent, settling wholly netted commissions without money', async () => {
    const who = await member();
    const first = await commissionFor(who, 1000);
    const second = await commissionFor(who, 800);
    const third = await commissionFor(who, 700);
    await owe(who.id, 1500);
    const before = await counters();
    const answer = await batch('pay', who.id);
    expect(answer.status).toBe(200);
    expect(outcomeOf(answer)).toMatchObject({ state: 'paid', amount: 25, netted: 15, transfer: 10, payout: 10 });
    expect((await transfersTo(who.accountId)).map((t) => t.amount)).toEqual([1000]);
    expect((await payoutsOf(who.accountId)).map((p) => p.amount)).toEqual([1000]);
    expect((await item(keys.memberOwed(who.id)))?.owedCents).toBe(0);
    expect(await item(commissionKey(first.id))).toMatchObject({ status: 'paid', nettedCents: 1000, payoutId: null });
    expect(await item(commissionKey(second.id))).toMatchObject({ status: 'paid', nettedCents: 500 });
    expect(await item(commissionKey(third.id))).toMatchObject({ status: 'paid', nettedCents: 0 });
    // Every commission counts as paid: the debt took its share.
    expect(delta(await counters(), before, MOVING)).toMatchObject({ paidCents: 2500, processingCents: -2500 });
  });

  it('settles without any transfer or payout when the debt covers everything, keeping the rest of the debt', async () => {
    const who = await member();
    await commissionFor(who, 1000);
    await commissionFor(who, 800);
    await owe(who.id, 5000);
    const answer = await batch('pay', who.id);
    expect(outcomeOf(answer)).toMatchObject({ state: 'settled', netted: 18, transfer: 0, payout: 0 });
    expect(await transfersTo(who.accountId)).toEqual([]);
    expect(await payoutsOf(who.accountId)).toEqual([]);
    expect((await item(keys.memberOwed(who.id)))?.owedCents).toBe(3200);
  });

  it('gives the netted debt back when Stripe refuses the transfer, and frees the commissions', async () => {
    const who = await member();
    const balance = await stripe.balance.retrieve();
    const available = balance.available.find((entry) => entry.currency === 'usd')?.amount ?? 0;
    const big = await commissionFor(who, available + 500_000);
    const small = await commissionFor(who, 100);
    await owe(who.id, 50);
    const answer = await batch('pay', who.id);
    expect(answer.status).toBe(409);
    expect(String(answer.body.message)).toMatch(
      /^The platform's available balance is too low to send these commissions \(\$[\d,]+\.\d\d\)/,
    );
    expect(await transfersTo(who.accountId)).toEqual([]);
    expect((await item(keys.memberOwed(who.id)))?.owedCents).toBe(50);
    // Owed again: in the admin's list of debts (/api/getMemberDebts).
    expect((await item(keys.memberOwed(who.id)))?.gsi1pk).toBe('DEBTS');
    for (const id of [big.id, small.id]) {
      const stored = await item(commissionKey(id));
      expect(stored).toMatchObject({ status: 'processing' });
      expect(stored?.batchId).toBeUndefined();
    }
    expect(await item(keys.payoutLock(who.id))).toBeUndefined();
  });
});

describe('/api/runPayoutBatch for everyone', () => {
  it('pays each member with open commissions in one transfer and one payout each', async () => {
    const ann = await member();
    const bob = await member();
    await commissionFor(ann, 1000);
    await commissionFor(ann, 1001);
    await commissionFor(bob, 2002);
    const answer = await batch('pay');
    expect(answer.status).toBe(200);
    const outcomes = answer.body.outcomes as { memberId: string; state: string; payout: number }[];
    expect(outcomes.find((o) => o.memberId === ann.id)).toMatchObject({ state: 'paid', payout: 20.01 });
    expect(outcomes.find((o) => o.memberId === bob.id)).toMatchObject({ state: 'paid', payout: 20.02 });
    expect((await transfersTo(ann.accountId)).map((t) => t.amount)).toEqual([2001]);
    expect((await payoutsOf(bob.accountId)).map((p) => p.amount)).toEqual([2002]);
  });
});

describe('/api/withdraw', () => {
  const quote = (who: Member) => call(quoteHandler, { body: {}, headers: auth(who.token) });
  const withdraw = (who: Member, body: Record<string, unknown>) =>
    call(withdrawHandler, { body: { requestId: randomUUID(), ...body }, headers: auth(who.token) });

  it('quotes the instant fee and the card, then pays instantly once for 50 concurrent requests', async () => {
    const who = await member();
    await commissionFor(who, 4000);
    await commissionFor(who, 2000);
    const quoted = await quote(who);
    expect(quoted.status).toBe(200);
    // Stripe bills the platform 1 % of the payout; the member pays it (INSTANT_FEE_PAID_BY's
    // default) as a smaller transfer: $59.41 + 59¢ = $60.00 exactly ($59.42 would need $60.01).
    expect(quoted.body).toMatchObject({
      available: 60,
      minimum: 10,
      canWithdraw: true,
      method: 'instant',
      fee: 0.59,
      feePaidBy: 'member',
      receive: 59.41,
      card: { last4: '5556' },
    });
    const answers = await Promise.all(Array.from({ length: 50 }, () => withdraw(who, { receive: 59.41, fee: 0.59 })));
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(1);
    expect(ok[0]!.body.outcome).toMatchObject({ state: 'paid', payout: 59.41, fee: 0.59, method: 'instant' });
    for (const answer of answers.filter((a) => a.status !== 200)) {
      expect(answer.status).toBe(409);
      expect(String(answer.body.message)).toMatch(/already under way|no available commissions/);
    }
    expect((await transfersTo(who.accountId)).map((t) => t.amount)).toEqual([5941]);
    const payouts = await payoutsOf(who.accountId);
    expect(payouts.map((p) => [p.amount, p.method])).toEqual([[5941, 'instant']]);
    // The member's Stripe balance: the transfer less the payout, nothing left over; Stripe billed
    // the platform its 1 % (59¢), which the member's fee covered.
    const balance = await stripe.balance.retrieve({}, { stripeAccount: who.accountId });
    expect(balance.available.find((b) => b.currency === 'usd')?.amount ?? 0).toBe(0);
    expect(await platformFeeFor(payouts[0]!.id)).toBe(59);
  });

  it('refuses below the minimum and when the balance changed since the confirmation, in words, moving nothing', async () => {
    const who = await member();
    await commissionFor(who, 900);
    const low = await quote(who);
    expect(low.body).toMatchObject({
      canWithdraw: false,
      reason: 'You can withdraw once your available balance reaches $10.00.',
    });
    const below = await withdraw(who, { receive: 8.5, fee: 0.5 });
    expect(below.status).toBe(409);
    expect(below.body.message).toBe(
      'Your available balance after clawbacks is $9.00, below the payout minimum of $10.00.',
    );
    await commissionFor(who, 600);
    const changed = await withdraw(who, { receive: 8.5, fee: 0.5 });
    expect(changed.status).toBe(409);
    expect(changed.body.message).toBe(
      'Your available balance changed: you would now receive $14.85 (instant fee $0.15). Review the new amount and confirm again.',
    );
    expect(await transfersTo(who.accountId)).toEqual([]);
    expect(await item(keys.payoutLock(who.id))).toBeUndefined();
  });

  it('with INSTANT_FEE_PAID_BY=platform, the member receives the whole balance and Stripe bills the platform the fee', async () => {
    const real = payoutBatches.settings;
    payoutBatches.settings = () => ({ ...real(), INSTANT_FEE_PAID_BY: 'platform' });
    try {
      const who = await member();
      await commissionFor(who, 2500);
      const quoted = await quote(who);
      expect(quoted.body).toMatchObject({ feePaidBy: 'platform', fee: 0.25, receive: 25, method: 'instant' });
      const answer = await withdraw(who, { receive: 25, fee: 0.25 });
      expect(answer.status).toBe(200);
      expect(answer.body.outcome).toMatchObject({
        message: expect.stringContaining("Stripe's instant fee $0.25 paid by the platform"),
      });
      expect((await transfersTo(who.accountId)).map((t) => t.amount)).toEqual([2500]);
      const payouts = await payoutsOf(who.accountId);
      expect(payouts.map((p) => [p.amount, p.method])).toEqual([[2500, 'instant']]);
      const balance = await stripe.balance.retrieve({}, { stripeAccount: who.accountId });
      expect(balance.available.find((b) => b.currency === 'usd')?.amount ?? 0).toBe(0);
      expect(await platformFeeFor(payouts[0]!.id)).toBe(25);
    } finally {
      payoutBatches.settings = real;
    }
  });

  it('falls back to a standard payout, no fee, when Stripe refuses instant: the member’s fee sent back in a second transfer', async () => {
    const who = await member();
    await commissionFor(who, 2000);
    await commissionFor(who, 1000);
    const quoted = await quote(who);
    expect(quoted.body).toMatchObject({ method: 'instant', fee: 0.3, receive: 29.7, note: null });
    instantPayouts.eligible = false; // Stripe has not enabled Instant Payouts for the platform
    try {
      const answer = await withdraw(who, { receive: 29.7, fee: 0.3 });
      expect(answer.status).toBe(200);
      const payouts = await payoutsOf(who.accountId);
      expect(payouts.map((p) => [p.amount, p.method])).toEqual([[3000, 'standard']]);
      const arriving = new Date(payouts[0]!.arrival_date * 1000).toLocaleDateString('en-US', {
        month: 'long',
        day: 'numeric',
        year: 'numeric',
        timeZone: 'UTC',
      });
      expect(answer.body.outcome).toMatchObject({ state: 'paid', payout: 30, fee: 0, method: 'standard' });
      expect((answer.body.outcome as { message: string }).message).toContain(
        `Instant payouts are not available (Stripe has not enabled instant payouts for this platform); paid by standard payout, arriving on ${arriving}, no fee.`,
      );
      // The emulator's ledger: the commissions less the fee, then the fee, then one standard payout of both.
      const transfers = await transfersTo(who.accountId);
      expect(transfers.map((t) => [t.amount, t.metadata.topUp ?? null]).reverse()).toEqual([
        [2970, null],
        [30, 'instant-fee'],
      ]);
      const balance = await stripe.balance.retrieve({}, { stripeAccount: who.accountId });
      expect(balance.available.find((b) => b.currency === 'usd')?.amount ?? 0).toBe(0);
      const stored = await item(
        keys.payoutBatch(String(answer.body.outcome && (answer.body.outcome as { batchId: string }).batchId), who.id),
      );
      expect(stored).toMatchObject({
        state: 'paid',
        method: 'standard',
        feeCents: 0,
        transferCents: 2970,
        topUpCents: 30,
        topUpTransferId: transfers.find((t) => t.amount === 30)!.id,
        payoutCents: 3000,
      });
      // Reconciliation knows both transfers and the payout: no difference about this member.
      const { handler: reconcile } = await import('../../functions/src/handlers/reconcile');
      const day = new Date(Date.now()).toISOString().slice(0, 10);
      const report = await call(reconcile, { body: { from: day, to: day }, headers: auth(admin) });
      expect(report.status, JSON.stringify(report.body)).toBe(200);
      const ids = new Set([who.accountId, ...transfers.map((t) => t.id), ...payouts.map((p) => p.id)]);
      const differences = report.body.differences as { text: string; stripeIds: string[]; ledgerIds: string[] }[];
      expect(
        differences
          .filter((d) => d.stripeIds.some((id) => ids.has(id)) || d.ledgerIds.includes(String(stored?.batchId)))
          .map((d) => d.text),
      ).toEqual([]);
    } finally {
      instantPayouts.eligible = true;
    }
  });

  it('pays over $9,999 by standard payout, saying instant is not available for the amount', async () => {
    const who = await member();
    await commissionFor(who, 1_100_000);
    const quoted = await quote(who);
    expect(quoted.body).toMatchObject({
      method: 'standard',
      fee: 0,
      receive: 11_000,
      note: 'Instant payouts are not available (an instant payout is at most $9,999.00); paid by standard payout, no fee.',
    });
    const answer = await withdraw(who, { receive: 11_000, fee: 0 });
    expect(answer.status).toBe(200);
    expect((answer.body.outcome as { message: string }).message).toMatch(
      /^Instant payouts are not available \(an instant payout is at most \$9,999\.00\); paid by standard payout, arriving on [A-Z][a-z]+ \d{1,2}, \d{4}, no fee\./,
    );
    expect((await transfersTo(who.accountId)).map((t) => t.amount)).toEqual([1_100_000]);
    expect((await payoutsOf(who.accountId)).map((p) => [p.amount, p.method])).toEqual([[1_100_000, 'standard']]);
  });

  it('pays standard, with no fee, to a card without instant payouts', async () => {
    const who = await member('4000056755665555');
    await commissionFor(who, 1500);
    const quoted = await quote(who);
    expect(quoted.body).toMatchObject({ method: 'standard', fee: 0, receive: 15, card: { last4: '5555' } });
    const answer = await withdraw(who, { receive: 15, fee: 0 });
    expect(answer.status).toBe(200);
    expect((await payoutsOf(who.accountId)).map((p) => [p.amount, p.method])).toEqual([[1500, 'standard']]);
  });
});

describe('the daily payouts', () => {
  it('pays each member at or over the minimum once a day, and resumes a member whose run crashed mid-batch', async () => {
    const { handler: daily } = await import('../../functions/src/handlers/scheduled/daily-payouts');
    const { dailyBatchId } = await import('../../functions/src/commissions/batches');
    const over = await member();
    const under = await member();
    const crashing = await member();
    await commissionFor(over, 1200);
    await commissionFor(under, 999);
    await commissionFor(crashing, 700);
    await commissionFor(crashing, 800);
    const batchId = dailyBatchId(Date.now());

    const real = payoutBatches.batches.recordPayout;
    payoutBatches.batches.recordPayout = (batch, payoutId, now) =>
      batch.memberId === crashing.id
        ? Promise.reject(new Error('the table write failed after the payout'))
        : real(batch, payoutId, now);
    let first;
    // The payouts' own events are dropped: the mail below is the run's, not payout.paid's.
    dropConnect = true;
    try {
      first = await asFunction('dailyPayouts', () => daily());
    } finally {
      payoutBatches.batches.recordPayout = real;
      dropConnect = false;
    }
    expect(first.batchId).toBe(batchId);
    expect(first.attention.map((a) => a.memberEmail)).toContain(crashing.email);
    expect((await payoutsOf(over.accountId)).map((p) => p.amount)).toEqual([1200]);
    expect(await transfersTo(under.accountId)).toEqual([]);
    expect((await payoutsOf(crashing.accountId)).map((p) => p.amount)).toEqual([1500]);
    expect(await item(keys.payoutBatch(batchId, crashing.id))).toMatchObject({ state: 'transferred' });
    // The run tells the member whose payout it recorded, once; not the one whose record failed.
    expect(mailsTo(over.email).map((mail) => mail.subject)).toEqual(['Your payout of $12.00 is on its way']);
    expect(mailsTo(crashing.email).filter((mail) => mail.subject.includes('payout'))).toEqual([]);

    // The same day again: the crashed member's batch completes with its payout; nobody is paid twice.
    const second = await asFunction('dailyPayouts', () => daily());
    expect(second.attention.map((a) => a.memberEmail)).not.toContain(crashing.email);
    expect((await payoutsOf(over.accountId)).map((p) => p.amount)).toEqual([1200]);
    expect((await transfersTo(over.accountId)).map((t) => t.amount)).toEqual([1200]);
    expect((await payoutsOf(crashing.accountId)).map((p) => p.amount)).toEqual([1500]);
    expect((await transfersTo(crashing.accountId)).map((t) => t.amount)).toEqual([1500]);
    expect(await item(keys.payoutBatch(batchId, crashing.id))).toMatchObject({ state: 'paid' });
    expect(await item(keys.payoutBatch(batchId, under.id))).toBeUndefined();
    const transfer = (await transfersTo(crashing.accountId))[0]!;
    expect(transfer.metadata).toMatchObject({ batchId, memberId: crashing.id, commissionCount: '2' });
  });
});

describe('a batch payout the card refuses (payout.failed)', () => {
  it('puts the batch’s commissions back to be paid, free for the next batch, with the reason', async () => {
    const { PAYOUT_FAILING_DEBIT_CARD } = await import('../../infra/local/stripe');
    const who = await member(PAYOUT_FAILING_DEBIT_CARD);
    const one = await commissionFor(who, 1300);
    const two = await commissionFor(who, 1400);
    const before = await counters();
    const requestId = randomUUID();
    const paid = await batch('pay', who.id, requestId);
    expect(outcomeOf(paid)).toMatchObject({ state: 'paid', payout: 27 });
    await emulator.idle();
    const [payout] = await payoutsOf(who.accountId);
    expect(payout).toMatchObject({ amount: 2700, status: 'failed' });

    const stored = await item(keys.payoutBatch(`admin-${requestId}`, who.id));
    expect(stored).toMatchObject({ state: 'payout_failed', payoutId: payout!.id });
    // The admins' "a payout failed": once, naming the member and the batch's payout, however often it is delivered.
    const failedEvent = await payoutEvent('payout.failed', payout!, who.accountId);
    for (let round = 0; round < 3; round++) expect((await deliverConnect(failedEvent)).status).toBe(200);
    expect(
      mailsTo(OPS)
        .filter((mail) => mail.text.includes(who.email))
        .map((mail) => mail.subject),
    ).toEqual([`A payout failed: $27.00 to ${who.email}`]);
    for (const id of [one.id, two.id]) {
      const commission = await item(commissionKey(id));
      expect(commission).toMatchObject({
        status: 'in_stripe',
        payoutId: null,
        failedPayoutId: payout!.id,
        gsi2pk: 'COMMISSIONS#STAGE#to_be_paid',
      });
      expect(typeof commission?.payoutFailure).toBe('string');
      expect(commission?.batchId).toBeUndefined();
    }
    // Sent, not paid: the counters say so.
    expect(delta(await counters(), before, MOVING)).toEqual({
      toStripeCount: -2,
      toStripeCents: -2700,
      toBePaidCount: 2,
      toBePaidCents: 2700,
      paidCents: 0,
      processingCents: 0,
    });
    // The next "Pay all" takes them again: no new transfer (their money is in Stripe), a new payout.
    const again = await batch('pay', who.id);
    expect(outcomeOf(again)).toMatchObject({ state: 'paid', transfer: 0, payout: 27 });
    expect(await transfersTo(who.accountId)).toHaveLength(1);
    expect(await payoutsOf(who.accountId)).toHaveLength(2);
  });
});

describe('a batch payout the card takes (payout.paid)', () => {
  it('mails the member "on its way" once per batch payout, naming the amount and the arrival date, across the run, its retry and three replays of payout.paid', async () => {
    const { mailDate } = await import('../../functions/src/email/templates');
    const who = await member('4000056755665555'); // standard: it arrives the next day
    const commissions = [await commissionFor(who, 1300), await commissionFor(who, 1450)];
    const requestId = randomUUID();
    const first = outcomeOf(await batch('pay', who.id, requestId));
    expect(first).toMatchObject({ state: 'paid', payout: 27.5 });
    // A standard payout is on its way until its arrival date, in words, on the batch and on each commission.
    expect(first.message).toMatch(/\(standard, on its way, expected [A-Z][a-z]+ \d{1,2}, \d{4}\)/);
    const [inTransit] = await payoutsOf(who.accountId);
    await emulator.idle();
    expect(await stripe.payouts.retrieve(inTransit!.id, {}, { stripeAccount: who.accountId })).toMatchObject({
      status: 'in_transit',
    });
    const { toCommission } = await import('../../functions/src/commissions/present');
    const { toCommissionRecord } = await import('../../functions/src/adapters/dynamo-sales-items');
    const { commissionStatusText } = await import('../../shared/src/domain/sales-status');
    const shown = toCommission(toCommissionRecord((await item(commissionKey(commissions[0]!.id)))!));
    expect(shown.payoutExpected).toBe(new Date(inTransit!.arrival_date * 1000).toISOString());
    expect(commissionStatusText(shown)).toMatch(/^Paid: on its way, expected [A-Z][a-z]+ \d{1,2}(st|nd|rd|th), \d{4}$/);
    await arrive(who.accountId); // the emulator's own payout.paid delivered at the arrival date
    expect(outcomeOf(await batch('pay', who.id, requestId))).toMatchObject({ state: 'paid' });
    const [payout] = await payoutsOf(who.accountId);
    expect(payout).toMatchObject({ amount: 2750, status: 'paid', method: 'standard' });
    const event = await payoutEvent('payout.paid', payout!, who.accountId);
    for (let round = 0; round < 3; round++) expect((await deliverConnect(event)).status).toBe(200);

    const mails = mailsTo(who.email);
    expect(mails.map((mail) => mail.subject)).toEqual(['Your payout of $27.50 is on its way']);
    expect(mails[0]!.text).toContain(`It should reach your card by ${mailDate(payout!.arrival_date * 1000)}.`);
    expect(mails[0]!.text).toContain('for 2 commissions');
    const stored = await item(keys.payoutBatch(`admin-${requestId}`, who.id));
    expect(stored).toMatchObject({ state: 'paid', payoutId: payout!.id, arrivalDate: payout!.arrival_date });
    expect(typeof stored?.payoutPaidAt).toBe('string');
    for (const { id } of commissions) expect(await item(commissionKey(id))).toMatchObject({ status: 'paid' });
  });

  it('completes a batch whose payout record was lost: its commissions to paid with that payout, once, the lock freed; replays change nothing', async () => {
    const who = await member();
    const one = await commissionFor(who, 2100);
    const two = await commissionFor(who, 900);
    const before = await counters();
    const real = payoutBatches.batches.recordPayout;
    payoutBatches.batches.recordPayout = () => {
      payoutBatches.batches.recordPayout = real;
      return Promise.reject(new Error('the table write failed after the payout'));
    };
    const requestId = randomUUID();
    expect((await batch('pay', who.id, requestId)).status).toBe(500);
    const batchKey = keys.payoutBatch(`admin-${requestId}`, who.id);
    // Stripe's own delivery of payout.paid (at its arrival date) completes it; then three replays of that event.
    await arrive(who.accountId);
    const [payout] = await payoutsOf(who.accountId);
    expect(payout).toMatchObject({ amount: 3000, status: 'paid' });

    const event = await payoutEvent('payout.paid', payout!, who.accountId);
    for (let round = 0; round < 3; round++) expect((await deliverConnect(event)).status).toBe(200);
    expect(await item(batchKey)).toMatchObject({ state: 'paid', payoutId: payout!.id });
    for (const { id } of [one, two]) {
      const commission = await item(commissionKey(id));
      expect(commission).toMatchObject({ status: 'paid', payoutId: payout!.id });
      expect(commission?.batchId).toBeUndefined();
    }
    expect(await item(keys.payoutLock(who.id))).toBeUndefined();
    expect(delta(await counters(), before, MOVING)).toEqual({
      toStripeCount: -2,
      toStripeCents: -3000,
      toBePaidCount: 0,
      toBePaidCents: 0,
      paidCents: 3000,
      processingCents: -3000,
    });
    expect(mailsTo(who.email).map((mail) => mail.subject)).toEqual(['Your payout of $30.00 is on its way']);
    // Nothing is left to pay, and nothing moved twice at Stripe.
    expect(outcomeOf(await batch('pay', who.id))).toMatchObject({ state: 'empty' });
    expect((await transfersTo(who.accountId)).map((t) => t.amount)).toEqual([3000]);
    expect(await payoutsOf(who.accountId)).toHaveLength(1);
  });

  it('is not mailed to a member who turned payout mails off', async () => {
    const { handler: saveMailPreferences } = await import('../../functions/src/handlers/save-mail-preferences');
    const who = await member();
    const saved = await call(saveMailPreferences, {
      body: { saleMails: true, payoutMails: false },
      headers: auth(who.token),
      path: '/api/saveMailPreferences',
    });
    expect(saved.status).toBe(200);
    await commissionFor(who, 1600);
    expect(outcomeOf(await batch('pay', who.id))).toMatchObject({ state: 'paid' });
    await emulator.idle();
    expect(mailsTo(who.email)).toEqual([]);
    const [payout] = await payoutsOf(who.accountId);
    expect(await item(keys.mailClaim('payout', payout!.id))).toMatchObject({
      status: 'skipped',
      skipped: 'turned off by the member',
    });
  });
});

describe('a batch payout whose funds are still pending at Stripe (issue 34)', () => {
  it('refuses a withdrawal of more than is available in the member’s words, naming what is pending and when, moving nothing', async () => {
    const who = await member();
    const sale = await stripe.paymentIntents.create({
      amount: 30_000,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
    });
    await commissionFor(who, 1500);
    await commissionFor(who, 2200, String(sale.latest_charge));
    const [funding] = (await stripe.balanceTransactions.list({ source: String(sale.latest_charge) })).data;
    const day = new Date(funding!.available_on * 1000).toLocaleDateString('en-GB', {
      day: 'numeric',
      month: 'short',
      timeZone: 'UTC',
    });
    const quoted = await call(quoteHandler, { body: {}, headers: auth(who.token) });
    expect(quoted.body).toMatchObject({ available: 15, pending: [{ amount: 22 }] });
    // A confirmation of the whole $37.00 (as a stale screen showed it).
    const answer = await call(withdrawHandler, {
      body: { requestId: randomUUID(), receive: 36.63, fee: 0.37 },
      headers: auth(who.token),
    });
    expect(answer.status).toBe(409);
    expect(answer.body.message).toBe(
      `You can withdraw $15.00 now, less than the $37.00 you confirmed; the rest is still pending at Stripe: $22.00 becomes available on ${day}. Nothing was moved: review the new amount and confirm again.`,
    );
    expect(await transfersTo(who.accountId)).toEqual([]);
    expect(await payoutsOf(who.accountId)).toEqual([]);
    expect(await item(keys.payoutLock(who.id))).toBeUndefined();
  });

  it('takes nothing while the sale’s funds are pending, saying the day they become available; pays once they are', async () => {
    const who = await member();
    const sale = await stripe.paymentIntents.create({
      amount: 30_000,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
    });
    // One card sale's commission: its transfer would be funded from the charge, pending until the charge's funds are.
    const commission = await commissionFor(who, 2200, String(sale.latest_charge));
    const [funding] = (await stripe.balanceTransactions.list({ source: String(sale.latest_charge) })).data;
    const day = new Date(funding!.available_on * 1000).toLocaleDateString('en-GB', {
      day: 'numeric',
      month: 'short',
      timeZone: 'UTC',
    });
    const requestId = randomUUID();
    const early = await batch('pay', who.id, requestId);
    expect(early.status).toBe(200);
    expect(outcomeOf(early)).toMatchObject({
      state: 'empty',
      message: `Nothing to pay for ${who.email} yet: $22.00 becomes available on ${day} at Stripe.`,
    });
    // Nothing claimed, nothing moved, no lock left: the member's next payout is not blocked.
    expect(await item(keys.payoutBatch(`admin-${requestId}`, who.id))).toBeUndefined();
    expect(await item(keys.payoutLock(who.id))).toBeUndefined();
    expect(await item(commissionKey(commission.id))).toMatchObject({ status: 'processing' });
    expect(await transfersTo(who.accountId)).toEqual([]);

    // Stripe's day comes: the same commission is paid, once.
    await emulator.clock.advance((funding!.available_on - Math.floor(emulator.clock.now() / 1000) + 60) * 1000);
    const paid = await batch('pay', who.id);
    expect(outcomeOf(paid)).toMatchObject({ state: 'paid', payout: 22 });
    expect((await payoutsOf(who.accountId)).map((payout) => payout.amount)).toEqual([2200]);
    expect(await item(commissionKey(commission.id))).toMatchObject({ status: 'paid', payoutFailure: null });
  });
});

describe('/api/getMemberPayoutCard', () => {
  it('names the debit card a member is paid to, for the payout’s confirmation; none, or no such member, in words', async () => {
    const { handler } = await import('../../functions/src/handlers/get-member-payout-card');
    const read = (memberId: string) => call(handler, { body: { memberId }, headers: auth(admin) });
    const instant = await member();
    expect((await read(instant.id)).body).toEqual({
      memberId: instant.id,
      card: { last4: '5556', brand: 'Visa', instant: true },
    });
    const standard = await member('4000056755665555');
    expect((await read(standard.id)).body).toMatchObject({ card: { last4: '5555', instant: false } });
    const unknown = await read(randomUUID());
    expect([unknown.status, unknown.body.message]).toEqual([404, 'No such member.']);
  });
});

describe("one transfer per charge: the platform's available balance is not needed for card sales (decision 0280)", () => {
  it("sends a batch of card sales whose charges are pending while the platform's available balance is 0 (each transfer from its charge); the payout claims them only once their funds are available, then pays once", async () => {
    const who = await member();
    const charges = [];
    for (const amount of [4000, 5000, 6000]) charges.push(String((await sale(amount)).latest_charge));
    const commissions = [];
    for (const [index, charge] of charges.entries())
      commissions.push(await commissionFor(who, 300 + index * 100, charge));
    // The platform's available balance to 0, as Stripe's daily payout leaves it (moved to another account here).
    const sink = await member();
    await stripe.transfers.create({ amount: await platformAvailable(), currency: 'usd', destination: sink.accountId });
    onTestFinished(async () => {
      await fundPlatform(stripe, 2_000_000);
    });
    expect(await platformAvailable()).toBe(0);

    const requestId = randomUUID();
    const sent = await batch('send', who.id, requestId);
    expect(sent.status).toBe(200);
    // The transfers went, each from its charge's pending funds, none from the platform's balance.
    const transfers = (await transfersTo(who.accountId)).filter((t) => t.metadata.batchId === `admin-${requestId}`);
    expect(transfers.map((t) => t.source_transaction).sort()).toEqual([...charges].sort());
    expect(await platformAvailable()).toBe(0);
    const pending = await stripe.balance.retrieve({}, { stripeAccount: who.accountId });
    expect(pending.pending.find((entry) => entry.currency === 'usd')?.amount).toBe(1200);
    for (const commission of commissions) {
      expect(await item(commissionKey(commission.id))).toMatchObject({ status: 'in_stripe' });
    }

    // While the funds are pending a payout claims nothing and makes none (issue 34: never a payout of funds not there).
    await batch('pay', who.id, randomUUID());
    expect(await payoutsOf(who.accountId)).toEqual([]);

    // The charges' funds become available (two days on Stripe's clock): the next run pays once.
    await emulator.clock.advance(3 * 24 * 3600 * 1000);
    const paid = await batch('pay', who.id, randomUUID());
    expect(paid.status).toBe(200);
    expect(outcomeOf(paid)).toMatchObject({ state: 'paid', payout: 12 });
    expect((await payoutsOf(who.accountId)).map((p) => p.amount)).toEqual([1200]);
    expect(await transfersTo(who.accountId)).toHaveLength(3);
  });

  it("sends a hand-entered order's commission from the balance the platform keeps (manual schedule) and a card sale's from its charge, in one batch", async () => {
    const who = await member();
    const charge = String((await sale(8000, 'pm_card_bypassPending')).latest_charge);
    const card = await commissionFor(who, 800, charge);
    const byHand = await commissionFor(who, 450);
    expect((await stripe.accounts.retrieveCurrent()).settings?.payouts?.schedule?.interval).toBe('manual');
    const platformBefore = await platformAvailable();
    const requestId = randomUUID();
    const answer = await batch('send', who.id, requestId);
    expect(answer.status).toBe(200);
    expect(outcomeOf(answer)).toMatchObject({ state: 'sent', transfer: 12.5 });
    expect(String(outcomeOf(answer).message)).toContain('in 2 transfers, one per sale');
    const transfers = await transfersTo(who.accountId);
    expect(transfers.map((t) => [t.source_transaction, t.amount]).sort()).toEqual(
      [
        [charge, 800],
        [null, 450],
      ].sort(),
    );
    // Both left the platform's available balance (this card sale's funds are available already), to the cent.
    expect(await platformAvailable()).toBe(platformBefore - 450 - 800);
    const own = transfers.find((t) => t.source_transaction === null)!;
    expect(await item(commissionKey(byHand.id))).toMatchObject({ status: 'in_stripe', transferId: own.id });
    const fromCharge = transfers.find((t) => t.source_transaction === charge)!;
    expect(await item(commissionKey(card.id))).toMatchObject({ status: 'in_stripe', transferId: fromCharge.id });
  });

  it('reverses the transfers already made when Stripe refuses a later one, so nothing of the batch stays moved', async () => {
    const who = await member();
    const byHand = await commissionFor(who, 300);
    // More than its sale's charge can fund: Stripe refuses that transfer (after the hand-entered one went).
    const charge = String((await sale(5000, 'pm_card_bypassPending')).latest_charge);
    const tooBig = await commissionFor(who, 9000, charge);
    const platformBefore = await platformAvailable();
    const requestId = randomUUID();
    const answer = await batch('pay', who.id, requestId);
    expect(answer.status).toBe(409);
    const [made] = await transfersTo(who.accountId);
    expect(made).toMatchObject({ amount: 300, source_transaction: null, amount_reversed: 300, reversed: true });
    expect(await platformAvailable()).toBe(platformBefore);
    expect(await item(keys.payoutBatch(`admin-${requestId}`, who.id))).toMatchObject({ state: 'released' });
    for (const id of [byHand.id, tooBig.id]) {
      const stored = await item(commissionKey(id));
      expect(stored).toMatchObject({ status: 'processing', transferId: null });
      expect(stored?.batchId).toBeUndefined();
    }
    expect(await item(keys.payoutLock(who.id))).toBeUndefined();
  });
});
