import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../functions/src/adapters/dynamo-client';
import { PAYOUT_FAILING_DEBIT_CARD, signature, type StripeEmulator } from '../../infra/local/stripe';
import { COUNTERS_KEY, commissionKey, createCommission, earningsKey, item } from './commission-fixtures';
import { auth, call, tokenFor, type CallResult } from './helpers';
import { fundPlatform, ownStripe, toEndpointOf, type OwnStripe } from './own-stripe';
import { debitCardToken, INSTANT_DEBIT_CARD, member as signedUpMember, payableMember } from './sales-helpers';

/**
 * The commission's money movement through the real `stripe` SDK against this file's own emulator,
 * whose signed events reach the webhook handler through a local endpoint. The endpoint can hold
 * deliveries back (`holdWebhooks`), so a test decides whether an event comes before or after the
 * write it races with.
 */
const secret = 'whsec_money_movement_secret';
const connectSecret = 'whsec_money_movement_connect_secret';
let own: OwnStripe | undefined;
let emulator: StripeEmulator;
let stripe: Stripe;
let admin: string;

const { handler: webhook } = await import('../../functions/src/handlers/stripe-webhook');
const { handler: connectWebhook } = await import('../../functions/src/handlers/stripe-connect-webhook');
const { handler: addToStripe } = await import('../../functions/src/handlers/add-commission-to-stripe');
const { handler: payToMember } = await import('../../functions/src/handlers/pay-commission-to-member');
const { commissionMoney } = await import('../../functions/src/composition');

let held: (() => void)[] | undefined;
const holdWebhooks = () => (held = []);
const releaseWebhooks = () => {
  const waiting = held ?? [];
  held = undefined;
  for (const release of waiting) release();
};
const deliveries: { id: string; type: string; status: number }[] = [];

beforeAll(async () => {
  own = await ownStripe('money-movement', {
    secrets: { account: secret, connect: connectSecret },
    receive: ({ body, signature: header }) =>
      new Promise((answer) => {
        const deliver = () =>
          void post(body, header).then((result) => {
            const { id, type } = JSON.parse(body.toString()) as { id: string; type: string };
            deliveries.push({ id, type, status: result.status });
            answer(result);
          });
        if (held) held.push(deliver);
        else deliver();
      }),
    webhookRetryDelaysMs: [50, 200],
  });
  ({ emulator, stripe } = own);
  admin = await tokenFor(true);
  // The platform's balance, from customers' card payments, pays the transfers.
  await fundPlatform(stripe, 500_000);
});

afterAll(async () => {
  releaseWebhooks();
  await own?.stop();
});

/**
 * To the endpoint Stripe sends the event to: a connected account's event (it names the account)
 * to the Connect endpoint, the platform's own to the platform endpoint.
 */
const post = toEndpointOf(webhook, connectWebhook);

/** Moves the emulator's clock to the arrival date of the account's payouts in transit: Stripe pays them then (payout.paid). */
async function arrive(accountId: string) {
  await emulator.idle();
  const payouts = (await stripe.payouts.list({ limit: 100 }, { stripeAccount: accountId })).data;
  const arrivals = payouts.filter((p) => p.status === 'in_transit').map((p) => p.arrival_date);
  expect(arrivals.length).toBeGreaterThan(0);
  await emulator.clock.advance(Math.max(0, Math.max(...arrivals) * 1000 - emulator.clock.now()));
  await emulator.idle();
}

/** Posts a stored event again, freshly signed: what Stripe's redelivery looks like. */
function replay(event: Stripe.Event): Promise<CallResult> {
  const payload = JSON.stringify(event);
  return post(payload, signature(payload, event.account ? connectSecret : secret, Math.floor(Date.now() / 1000)));
}

interface Member {
  id: string;
  email: string;
  accountId: string | null;
  token?: string;
}

/** A member, with a payout account unless `account` is false, and a debit card (`card`) unless it is null. */
async function member(
  options: { account?: boolean; card?: string | null; form?: Record<string, unknown> } = {},
): Promise<Member> {
  if (options.account !== false) return payableMember(stripe, options);
  const { id, email } = await signedUpMember();
  return { id, email, accountId: null };
}

/** Marks the member's card as added in the table only (no Stripe call): the portal's own gate passes. */
async function setCard(who: Member) {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { pk: `USER#${who.id}`, sk: 'PROFILE' },
      UpdateExpression: 'SET isPayoutMethodAdded = :one',
      ExpressionAttributeValues: { ':one': 1 },
    }),
  );
}

const commissionFor = (who: Member, amountCents: number, orderFulfilled: 0 | 1 = 1) =>
  createCommission({ memberId: who.id, memberEmail: who.email, amountCents, orderFulfilled });

const send = (id: string) => call(addToStripe, { body: { id }, headers: auth(admin) });
const pay = (id: string) => call(payToMember, { body: { id }, headers: auth(admin) });

const transfersTo = async (accountId: string) =>
  (await stripe.transfers.list({ destination: accountId, limit: 100 })).data;
const payoutsOf = async (accountId: string) =>
  (await stripe.payouts.list({ limit: 100 }, { stripeAccount: accountId })).data;

const counters = async () => (await item(COUNTERS_KEY)) as Record<string, number>;
const delta = (after: Record<string, number>, before: Record<string, number>, names: string[]) =>
  Object.fromEntries(names.map((name) => [name, (after[name] ?? 0) - (before[name] ?? 0)]));
const MOVING = ['toStripeCount', 'toStripeCents', 'toBePaidCount', 'toBePaidCents', 'paidCents', 'processingCents'];

describe('/api/addCommisionToStripe', () => {
  it('transfers a fulfilled commission of a payable member to their Stripe balance, once', async () => {
    const who = await member();
    const commission = await commissionFor(who, 1234);
    const before = await counters();
    const sent = await send(commission.id);
    expect(sent.status).toBe(200);
    expect(sent.body.commission).toMatchObject({
      id: commission.id,
      amount: 12.34,
      state: 'in_stripe',
      isInCustomersAccount: 1,
      isPayed: 0,
      blockedReason: null,
      member: { id: who.id, email: who.email },
    });
    const transfers = await transfersTo(who.accountId!);
    expect(transfers.map((transfer) => [transfer.amount, transfer.metadata.commissionId])).toEqual([
      [1234, commission.id],
    ]);
    expect(await item(commissionKey(commission.id))).toMatchObject({
      isInCustomersAccount: 1,
      transferId: transfers[0]!.id,
      gsi2pk: 'COMMISSIONS#STAGE#to_be_paid',
    });
    expect(delta(await counters(), before, MOVING)).toEqual({
      toStripeCount: -1,
      toStripeCents: -1234,
      toBePaidCount: 1,
      toBePaidCents: 1234,
      paidCents: 0,
      processingCents: 0,
    });
  });

  it('makes one transfer and one state change for 50 concurrent calls, each answered with the commission in Stripe', async () => {
    const who = await member();
    const commission = await commissionFor(who, 777);
    const before = await counters();
    const answers = await Promise.all(Array.from({ length: 50 }, () => send(commission.id)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(200));
    expect(new Set(answers.map((answer) => (answer.body.commission as { state: string }).state))).toEqual(
      new Set(['in_stripe']),
    );
    const transfers = await transfersTo(who.accountId!);
    expect(transfers).toHaveLength(1);
    expect((await item(commissionKey(commission.id)))?.transferId).toBe(transfers[0]!.id);
    expect(delta(await counters(), before, MOVING)).toMatchObject({ toStripeCount: -1, toBePaidCount: 1 });
  });

  it('refuses with the reason, and asks nothing of Stripe, when the order is not fulfilled or the member cannot be paid', async () => {
    const payable = await member();
    const unfulfilled = await commissionFor(payable, 500, 0);
    const noCard = await member({ card: null });
    const noAccount = await member({ account: false });
    const cases: [string, string][] = [
      [(await commissionFor(payable, 500, 0)).id, 'The order of this commission is not fulfilled yet.'],
      [(await commissionFor(noCard, 500)).id, 'The member has no debit card yet.'],
      [(await commissionFor(noAccount, 500)).id, 'The member has no payout account yet.'],
    ];
    for (const [id, message] of cases) {
      const answer = await send(id);
      expect(answer.status).toBe(409);
      expect(answer.body.message).toBe(message);
      expect(await item(commissionKey(id))).toMatchObject({ isInCustomersAccount: 0, transferId: null });
      expect((await item(commissionKey(id)))?.transferPendingAt).toBeUndefined();
    }
    expect(await transfersTo(payable.accountId!)).toEqual([]);
    expect(await transfersTo(noCard.accountId!)).toEqual([]);
    expect((await send(unfulfilled.id)).status).toBe(409);
    const unknown = await send('no-such-commission');
    expect(unknown.status).toBe(404);
    expect((await pay(unfulfilled.id)).body.message).toBe(
      "This commission is not in the member's Stripe balance yet: send it to Stripe first.",
    );
  });

  it('heals a crash between the transfer and the table write: the retry finds the same transfer and completes', async () => {
    const who = await member();
    const commission = await commissionFor(who, 4321);
    const before = await counters();
    const real = commissionMoney.store.completeTransfer;
    commissionMoney.store.completeTransfer = () => {
      commissionMoney.store.completeTransfer = real;
      return Promise.reject(new Error('the table write failed after the transfer'));
    };
    const crashed = await send(commission.id);
    expect(crashed.status).toBe(500);
    expect(commissionMoney.store.completeTransfer).toBe(real);
    const [transfer] = await transfersTo(who.accountId!);
    expect(transfer?.amount).toBe(4321);
    const pending = await item(commissionKey(commission.id));
    expect(pending).toMatchObject({ isInCustomersAccount: 0, transferId: null });
    expect(typeof pending?.transferPendingAt).toBe('string');

    const retried = await send(commission.id);
    expect(retried.status).toBe(200);
    expect((retried.body.commission as { state: string }).state).toBe('in_stripe');
    expect((await transfersTo(who.accountId!)).map((item) => item.id)).toEqual([transfer!.id]);
    expect(await item(commissionKey(commission.id))).toMatchObject({
      isInCustomersAccount: 1,
      transferId: transfer!.id,
    });
    expect(delta(await counters(), before, MOVING)).toMatchObject({ toStripeCount: -1, toBePaidCount: 1 });
  });
});

describe('/api/addCommisionToStripe after Stripe’s key may have expired', () => {
  it('adopts the transfer found at Stripe for a pending attempt older than 23 hours, and makes none', async () => {
    const { clock } = await import('../../functions/src/config/clock');
    const who = await member();
    const commission = await commissionFor(who, 2222);
    const real = commissionMoney.store.completeTransfer;
    commissionMoney.store.completeTransfer = () => {
      commissionMoney.store.completeTransfer = real;
      return Promise.reject(new Error('the table write failed after the transfer'));
    };
    expect((await send(commission.id)).status).toBe(500);
    const [transfer] = await transfersTo(who.accountId!);
    const createTransfer = commissionMoney.gateway.createTransfer;
    let created = 0;
    commissionMoney.gateway.createTransfer = (request) => {
      created++;
      return createTransfer(request);
    };
    const realNow = clock.now;
    clock.now = () => realNow() + 25 * 3600 * 1000;
    try {
      const retried = await send(commission.id);
      expect(retried.status).toBe(200);
      expect((retried.body.commission as { state: string }).state).toBe('in_stripe');
    } finally {
      clock.now = realNow;
      commissionMoney.gateway.createTransfer = createTransfer;
    }
    expect(created).toBe(0);
    expect((await transfersTo(who.accountId!)).map((item) => item.id)).toEqual([transfer!.id]);
    expect((await item(commissionKey(commission.id)))?.transferId).toBe(transfer!.id);
  });

  it('says when the platform’s available balance covers it, leaves the commission in processing, and sends it at once when funded (a new key)', async () => {
    const who = await member();
    const balance = await stripe.balance.retrieve();
    const available = balance.available.find((entry) => entry.currency === 'usd')?.amount ?? 0;
    const commission = await commissionFor(who, available + 1000);
    // A card payment's funds are pending for days: they cover the shortfall on the day they land.
    const pending = await stripe.paymentIntents.create({
      amount: 5000,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
    });
    const charge = await stripe.charges.retrieve(String(pending.latest_charge));
    const { available_on: availableOn } = await stripe.balanceTransactions.retrieve(String(charge.balance_transaction));
    const day = new Date(availableOn * 1000).toLocaleDateString('en-US', {
      month: 'long',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'UTC',
    });
    const refused = await send(commission.id);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      `The platform's available balance is too low to send this commission: it becomes available on ${day}.`,
    );
    expect(await item(commissionKey(commission.id))).toMatchObject({
      isInCustomersAccount: 0,
      transferId: null,
      transferAttempt: 1,
      transferFailure: refused.body.message,
    });
    expect(await transfersTo(who.accountId!)).toEqual([]);

    // The cause fixed (funds available now, enough for the tests after this one too), the retry goes
    // at once: Stripe does not replay the refusal.
    await fundPlatform(stripe, 500_000);
    const sent = await send(commission.id);
    expect(sent.status).toBe(200);
    const transfers = await transfersTo(who.accountId!);
    expect(transfers.map((transfer) => [transfer.amount, transfer.metadata.attempt])).toEqual([
      [available + 1000, '1'],
    ]);
    expect(await item(commissionKey(commission.id))).toMatchObject({ isInCustomersAccount: 1, transferAttempt: 1 });
  });

  it("sends a card sale's commission from its charge while the charge's funds are still pending", async () => {
    const who = await member();
    const balance = await stripe.balance.retrieve();
    const available = balance.available.find((entry) => entry.currency === 'usd')?.amount ?? 0;
    const sale = await stripe.paymentIntents.create({
      amount: available + 50_000,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
    });
    const chargeId = String(sale.latest_charge);
    // More than the platform's available balance: only the charge's pending funds can pay it.
    const commission = await createCommission({
      memberId: who.id,
      memberEmail: who.email,
      amountCents: available + 100,
      chargeId,
    });
    const sent = await send(commission.id);
    expect([sent.status, sent.body.message]).toEqual([200, undefined]);
    const transfers = await transfersTo(who.accountId!);
    expect(transfers.map((transfer) => [transfer.amount, transfer.source_transaction])).toEqual([
      [available + 100, chargeId],
    ]);
  });

  it('answers 409 without calling Stripe while the stored state says the account is being verified', async () => {
    // Stripe's test values that verify after a while: the account is `pending` meanwhile.
    const who = await member({ card: null, form: { dob_day: 1, dob_month: 1, dob_year: 1901, tax_id: '000000000' } });
    const commission = await commissionFor(who, 500);
    await setCard(who);
    const refused = await send(commission.id);
    expect([refused.status, refused.body.message]).toEqual([
      409,
      "Stripe is still verifying the member's payout account: it cannot receive transfers until that is done. Try again later.",
    ]);
    expect(await transfersTo(who.accountId!)).toEqual([]);
    expect(await item(commissionKey(commission.id))).toMatchObject({ isInCustomersAccount: 0 });
  });

  it('answers an account Stripe no longer lets the platform reach (403) as gone, in words, to the admin and the member', async () => {
    const who = await member();
    const inStripe = await commissionFor(who, 300);
    expect((await send(inStripe.id)).status).toBe(200);
    const another = await commissionFor(who, 200);
    // The account id the member holds is one the platform cannot reach (closed, or another platform's).
    const gone = 'acct_1GoneGoneGone00';
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: `USER#${who.id}`, sk: 'PROFILE' },
        UpdateExpression: 'SET stripeID = :gone',
        ExpressionAttributeValues: { ':gone': gone },
      }),
    );
    // The payout (made as the account: Stripe answers 403).
    const paid = await pay(inStripe.id);
    expect([paid.status, paid.body.message]).toEqual([
      409,
      "The member's payout account can no longer be reached at Stripe (it was closed or disconnected): ask the member to set up payouts again.",
    ]);
    // A transfer to it (Stripe answers that there is no such destination).
    const sent = await send(another.id);
    expect([sent.status, sent.body.message]).toEqual([
      409,
      "The member's payout account was not found at Stripe: ask the member to set up payouts again.",
    ]);
    expect(await item(commissionKey(inStripe.id))).toMatchObject({ isPayed: 0 });
    expect(await item(commissionKey(another.id))).toMatchObject({ isInCustomersAccount: 0 });
    // The member's own read of the account (Stripe answers 403).
    const { handler: getExternalAccounts } = await import('../../functions/src/handlers/get-external-accounts');
    const listed = await call(getExternalAccounts, { body: { id: gone }, headers: auth(who.token!) });
    expect([listed.status, listed.body.message]).toEqual([
      404,
      'Your payout account can no longer be reached at Stripe (it was closed or disconnected). Set up payouts again to be paid.',
    ]);
  });
});

describe('/api/payCommisionToMember', () => {
  it('pays one payout for 50 concurrent calls, and moves the counters and the member’s earnings once', async () => {
    const who = await member();
    const commission = await commissionFor(who, 2500);
    expect((await send(commission.id)).status).toBe(200);
    const before = await counters();
    const earningsBefore = (await item(earningsKey(who.id))) as Record<string, number>;
    const answers = await Promise.all(Array.from({ length: 50 }, () => pay(commission.id)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(200));
    expect(new Set(answers.map((answer) => (answer.body.commission as { state: string }).state))).toEqual(
      new Set(['paid']),
    );
    const payouts = await payoutsOf(who.accountId!);
    expect(payouts.map((payout) => [payout.amount, payout.method, payout.metadata?.commissionId])).toEqual([
      // The balance holds the commission only: instant's fee would not fit (decision 0050).
      [2500, 'standard', commission.id],
    ]);
    const stored = await item(commissionKey(commission.id));
    expect(stored).toMatchObject({ isPayed: 1, payoutId: payouts[0]!.id });
    expect(stored?.gsi2pk).toBeUndefined();
    expect(delta(await counters(), before, MOVING)).toEqual({
      toStripeCount: 0,
      toStripeCents: 0,
      toBePaidCount: -1,
      toBePaidCents: -2500,
      paidCents: 2500,
      processingCents: -2500,
    });
    const earnings = (await item(earningsKey(who.id))) as Record<string, number>;
    expect(delta(earnings, earningsBefore, ['paidCents', 'processingCents', 'totalCents', 'count'])).toEqual({
      paidCents: 2500,
      processingCents: -2500,
      totalCents: 0,
      count: 0,
    });

    // payout.paid (sent at the payout's arrival date) and transfer.created are acknowledged on the
    // commission; 3 replays of each change nothing.
    await arrive(who.accountId!);
    const acknowledged = await item(commissionKey(commission.id));
    expect(typeof acknowledged?.payoutPaidAt).toBe('string');
    expect(typeof acknowledged?.transferCreatedAt).toBe('string');
    const paidEvents = await stripe.events.list({ type: 'payout.paid' }, { stripeAccount: who.accountId! });
    const transferEvents = await stripe.events.list({ type: 'transfer.created', limit: 100 });
    const events = [
      ...paidEvents.data,
      ...transferEvents.data.filter(
        (event) => (event.data.object as Stripe.Transfer).metadata.commissionId === commission.id,
      ),
    ];
    expect(events).toHaveLength(2);
    const countersSettled = await counters();
    for (const event of events) {
      for (let round = 0; round < 3; round++) expect((await replay(event)).status).toBe(200);
    }
    expect(await item(commissionKey(commission.id))).toEqual(acknowledged);
    expect(await counters()).toEqual(countersSettled);
  });

  it('pays a commission out standard (free) whether or not the card takes instant payouts: Stripe bills the platform for instant', async () => {
    // Both members hold more than the commission (an extra $20 transfer): before decision 0270 the
    // second one's payout went instant, its fee taken from the member's balance; Stripe bills that
    // fee to the platform, so a payout nobody asked to be instant is standard.
    const noInstant = await member({ card: '4000056755665555' });
    const instant = await member();
    const cards = await stripe.accounts.listExternalAccounts(noInstant.accountId!, { object: 'card' });
    expect(
      cards.data.map((card) => (card as { available_payout_methods?: string[] }).available_payout_methods),
    ).toEqual([['standard']]);
    const methods: string[] = [];
    for (const who of [noInstant, instant]) {
      await stripe.transfers.create({ amount: 2000, currency: 'usd', destination: who.accountId! });
      const commission = await commissionFor(who, 1500);
      expect((await send(commission.id)).status).toBe(200);
      const paid = await pay(commission.id);
      expect(paid.status).toBe(200);
      expect((paid.body.commission as { state: string }).state).toBe('paid');
      const payouts = await payoutsOf(who.accountId!);
      expect(payouts.map((payout) => [payout.amount, payout.metadata?.commissionId])).toEqual([[1500, commission.id]]);
      methods.push(payouts[0]!.method);
    }
    expect(methods).toEqual(['standard', 'standard']);
  });

  it('heals a crash between the payout and the table write: the retry gets the same payout', async () => {
    const who = await member();
    const commission = await commissionFor(who, 1500);
    expect((await send(commission.id)).status).toBe(200);
    const real = commissionMoney.store.completePayout;
    commissionMoney.store.completePayout = () => {
      commissionMoney.store.completePayout = real;
      return Promise.reject(new Error('the table write failed after the payout'));
    };
    expect((await pay(commission.id)).status).toBe(500);
    expect(await item(commissionKey(commission.id))).toMatchObject({ isPayed: 0, payoutId: null });
    const [payout] = await payoutsOf(who.accountId!);
    const retried = await pay(commission.id);
    expect(retried.status).toBe(200);
    expect((await payoutsOf(who.accountId!)).map((item) => item.id)).toEqual([payout!.id]);
    expect(await item(commissionKey(commission.id))).toMatchObject({ isPayed: 1, payoutId: payout!.id });
  });

  it('puts a commission whose payout failed back among those to be paid, with Stripe’s reason; a new payout with a new key then pays it', async () => {
    const who = await member({ card: PAYOUT_FAILING_DEBIT_CARD });
    const commission = await commissionFor(who, 1900);
    expect((await send(commission.id)).status).toBe(200);
    const before = await counters();
    const earningsBefore = (await item(earningsKey(who.id))) as Record<string, number>;
    holdWebhooks();
    const paid = await pay(commission.id);
    expect(paid.status).toBe(200);
    expect((paid.body.commission as { state: string }).state).toBe('paid');
    releaseWebhooks();
    await emulator.idle();

    const failed = await item(commissionKey(commission.id));
    expect(failed).toMatchObject({
      isPayed: 0,
      isInCustomersAccount: 1,
      payoutId: null,
      payoutAttempt: 1,
      payoutFailure: 'The bank could not process this payout.',
      gsi2pk: 'COMMISSIONS#STAGE#to_be_paid',
    });
    expect(delta(await counters(), before, MOVING)).toEqual(Object.fromEntries(MOVING.map((name) => [name, 0])));
    const earnings = (await item(earningsKey(who.id))) as Record<string, number>;
    expect(delta(earnings, earningsBefore, ['paidCents', 'processingCents'])).toEqual({
      paidCents: 0,
      processingCents: 0,
    });

    // Replays of payout.failed (3 times) change nothing.
    const failedEvents = await stripe.events.list({ type: 'payout.failed' }, { stripeAccount: who.accountId! });
    expect(failedEvents.data).toHaveLength(1);
    const settled = await counters();
    for (let round = 0; round < 3; round++) expect((await replay(failedEvents.data[0]!)).status).toBe(200);
    expect(await item(commissionKey(commission.id))).toEqual(failed);
    expect(await counters()).toEqual(settled);

    // The admin sees the reason.
    const { present } = await import('../../functions/src/commissions/money-movement');
    expect(present(failed as never).payoutFailure).toBe('The bank could not process this payout.');

    // The member puts a working card first; the second payout (attempt 1, a new key) is paid.
    const good = await debitCardToken(stripe, INSTANT_DEBIT_CARD);
    await stripe.accounts.createExternalAccount(who.accountId!, {
      external_account: good,
      default_for_currency: true,
    });
    const second = await pay(commission.id);
    expect(second.status).toBe(200);
    expect(second.body.commission).toMatchObject({ state: 'paid', payoutFailure: null });
    await arrive(who.accountId!);
    const payouts = await payoutsOf(who.accountId!);
    expect(payouts.map((payout) => [payout.metadata?.attempt, payout.status])).toEqual([
      ['1', 'paid'],
      ['0', 'failed'],
    ]);
    expect(await item(commissionKey(commission.id))).toMatchObject({ isPayed: 1, payoutId: payouts[0]!.id });
    expect(delta(await counters(), before, MOVING)).toMatchObject({ paidCents: 1900, toBePaidCount: -1 });
  });

  it('records a payout.failed that outruns the payout’s own write, so that write cannot mark it paid', async () => {
    const { onMoneyEvent } = await import('../../functions/src/commissions/money-movement');
    const who = await member();
    const commission = await commissionFor(who, 600);
    expect((await send(commission.id)).status).toBe(200);
    const reserved = await commissionMoney.store.reservePayout(commission.id, new Date().toISOString());
    expect(reserved?.payoutAttempt).toBe(0);
    const event = {
      id: 'evt_outrun',
      kind: 'payout.failed' as const,
      payoutId: 'po_outrun',
      accountId: who.accountId!,
      metadata: { commissionId: commission.id, attempt: '0' },
      failure: 'The bank could not process this payout.',
      created: Math.floor(Date.now() / 1000),
    };
    expect(await onMoneyEvent(commissionMoney, event)).toBe(true);
    expect(await onMoneyEvent(commissionMoney, event)).toBe(false);
    expect(await commissionMoney.store.completePayout(reserved!, 0, 'po_outrun', new Date().toISOString())).toBe(false);
    expect(await item(commissionKey(commission.id))).toMatchObject({
      isPayed: 0,
      payoutAttempt: 1,
      payoutFailure: 'The bank could not process this payout.',
    });
  });
});

describe('/api/payCommisionToMember refused by Stripe at the create', () => {
  it('keeps the reason for the admin and moves the attempt on, so the try after the cause is fixed is a new payout, not the refusal replayed', async () => {
    const who = await member();
    // A card sale whose funds are still pending: its commission's transfer lands pending in the member's balance too.
    const sale = await stripe.paymentIntents.create({
      amount: 20_000,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
    });
    const commission = await createCommission({
      memberId: who.id,
      memberEmail: who.email,
      amountCents: 2000,
      chargeId: String(sale.latest_charge),
    });
    expect((await send(commission.id)).status).toBe(200);
    const before = await counters();

    const refused = await pay(commission.id);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      "The member's Stripe balance is too low for this payout: the commission's funds are not available in it yet. Try again later.",
    );
    const stored = await item(commissionKey(commission.id));
    expect(stored).toMatchObject({
      status: 'in_stripe',
      payoutAttempt: 1,
      payoutFailure: refused.body.message,
      gsi2pk: 'COMMISSIONS#STAGE#to_be_paid',
    });
    expect(stored?.payoutPendingAt).toBeUndefined();
    expect(await payoutsOf(who.accountId!)).toEqual([]);

    // The cause fixed within Stripe's 24 h (funds available in the member's balance): the same key
    // would replay the refusal; the next attempt's key is a new request, and pays once.
    await stripe.transfers.create({ amount: 2000, currency: 'usd', destination: who.accountId! });
    const paid = await pay(commission.id);
    expect(paid.status).toBe(200);
    const payouts = await payoutsOf(who.accountId!);
    expect(payouts.map((payout) => [payout.amount, payout.metadata?.attempt])).toEqual([[2000, '1']]);
    expect(await item(commissionKey(commission.id))).toMatchObject({
      status: 'paid',
      payoutId: payouts[0]!.id,
      payoutFailure: null,
      payoutAttempt: 1,
      // Kept for the member's "on its way" mail, which names it.
      payoutArrivalDate: payouts[0]!.arrival_date,
    });
    expect(delta(await counters(), before, MOVING)).toMatchObject({ toBePaidCount: -1, paidCents: 2000 });
  });
});

describe('webhook deliveries', () => {
  it('answered every event the emulator sent with 200, at once or after a 409 while its first delivery was still at work', async () => {
    await emulator.idle();
    expect(deliveries.length).toBeGreaterThan(0);
    // A redelivery that arrives while the first is still applying the event is told 409 (Stripe
    // delivers it again later: processed-events.ts); on a loaded machine that happens. Nothing else.
    expect(deliveries.filter((delivery) => delivery.status !== 200 && delivery.status !== 409)).toEqual([]);
    const answered = new Set(deliveries.filter((delivery) => delivery.status === 200).map((delivery) => delivery.id));
    expect(deliveries.filter((delivery) => !answered.has(delivery.id))).toEqual([]);
  });
});
