import type Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PAYOUT_FAILING_DEBIT_CARD, signature, type StripeEmulator } from '../../infra/local/stripe';
import { StripeFaults, type Fault } from '../../infra/local/stripe/testing';
import { COUNTERS_KEY, commissionKey, createCommission, item } from './commission-fixtures';
import { auth, call, payoutAccountForm, tokenFor, uniqueEmail } from './helpers';
import { fundPlatform, ownStripe, type OwnStripe } from './own-stripe';
import { INSTANT_DEBIT_CARD, payableMember as newPayableMember } from './sales-helpers';

/**
 * What Stripe's faults do to the three calls that make something at Stripe: the member's payout
 * account, a commission's transfer and its payout. This file's own emulator throws them (429 or
 * 500 before the work, a dropped connection or an answer later than the client's timeout after
 * it); each is thrown once (the adapter's retries get through) and then three times (the retries
 * give up: a 503 in words, the table as it was, and a later call completes it once). Each
 * attempt's timeout is cut to 300 ms here, so a late answer costs well under a second.
 */
process.env.STRIPE_TIMEOUT_MS = '300';
const faults = new StripeFaults();
let own: OwnStripe | undefined;
let emulator: StripeEmulator;
let stripe: Stripe;
let admin: string;

const { handler: signup } = await import('../../functions/src/handlers/signup');
const { handler: createAccount } = await import('../../functions/src/handlers/create-payout-account');
const { handler: addToStripe } = await import('../../functions/src/handlers/add-commission-to-stripe');
const { handler: payToMember } = await import('../../functions/src/handlers/pay-commission-to-member');
const { handler: connectWebhook } = await import('../../functions/src/handlers/stripe-connect-webhook');

beforeAll(async () => {
  own = await ownStripe('faults-stripe', { faults });
  ({ emulator, stripe } = own);
  admin = await tokenFor(true);
  await fundPlatform(stripe, 500_000);
});

afterEach(() => faults.clear());

afterAll(() => own?.stop());

/** The four faults; `delay` holds the answer past the 300 ms timeout. */
const FAULTS: [name: string, fault: Fault][] = [
  ['429', { kind: 'status', status: 429 }],
  ['500', { kind: 'status', status: 500 }],
  ['a dropped connection after the work', { kind: 'drop' }],
  ['an answer later than the timeout', { kind: 'delay', ms: 1_500 }],
];
/** One attempt and the adapter's two retries. */
const OUTLASTING = 3;
const UNAVAILABLE = /^Stripe did not answer\. Nothing was (done|sent|paid out) twice; try again in a minute\.$/;

/** Every request the fault hit carried the one key the call is made with. */
const expectOneKey = (key: string, times: number) =>
  expect(faults.faulted.map((request) => request.idempotencyKey)).toEqual(Array(times).fill(key));

async function signedUp(): Promise<{ id: string; token: string }> {
  const signed = await call(signup, { body: { email: uniqueEmail('faults'), password: 'long enough password' } });
  return {
    id: String((signed.body.userProfile as { id: string }).id),
    token: String(signed.body.access_token),
  };
}

const userItem = (id: string) => item({ pk: `USER#${id}`, sk: 'PROFILE' });
const accountsOf = async (userId: string) =>
  (await stripe.accounts.list({ limit: 100 })).data.filter((account) => account.metadata?.userId === userId);

/** A member with a payout account and a debit card, whose commissions can be moved. */
let payable: { id: string; email: string; accountId: string } | undefined;
async function payableMember(cardNumber = INSTANT_DEBIT_CARD) {
  if (payable && cardNumber === INSTANT_DEBIT_CARD) return payable;
  const { id, email, accountId } = await newPayableMember(stripe, { card: cardNumber });
  const made = { id, email, accountId };
  if (cardNumber === INSTANT_DEBIT_CARD) payable = made;
  return made;
}

const send = (id: string) => call(addToStripe, { body: { id }, headers: auth(admin) });
const pay = (id: string) => call(payToMember, { body: { id }, headers: auth(admin) });
const transfersFor = async (accountId: string, commissionId: string) =>
  (await stripe.transfers.list({ destination: accountId, limit: 100 })).data.filter(
    (transfer) => transfer.metadata?.commissionId === commissionId,
  );
const payoutsFor = async (accountId: string, commissionId: string) =>
  (await stripe.payouts.list({ limit: 100 }, { stripeAccount: accountId })).data.filter(
    (payout) => payout.metadata?.commissionId === commissionId,
  );
const counters = async () => (await item(COUNTERS_KEY)) as Record<string, number>;
/** Whether Stripe did the work before the fault (a dropped or late answer) or not (429, 500). */
const workDone = (fault: Fault) => (fault.kind === 'status' ? 0 : 1);

describe.each(FAULTS)('Stripe answers %s', (_, fault) => {
  it('account creation: the retries make one account; after they give up, the member reads why, nothing is stored, and trying again stores the one account', async () => {
    // Once: the adapter's retry gets through with the same key.
    const first = await signedUp();
    faults.inject({ method: 'POST', path: '/v1/accounts', fault });
    const created = await call(createAccount, { body: payoutAccountForm, headers: auth(first.token) });
    expect(created.status).toBe(200);
    expectOneKey(`portal:payout-account:${first.id}`, 1);
    const [account, ...more] = await accountsOf(first.id);
    expect(more).toEqual([]);
    expect((await userItem(first.id))?.stripeID).toBe(account?.id);

    // Three times: the retries give up.
    faults.clear();
    const second = await signedUp();
    const before = await userItem(second.id);
    faults.inject({ method: 'POST', path: '/v1/accounts', fault, times: OUTLASTING });
    const refused = await call(createAccount, { body: payoutAccountForm, headers: auth(second.token) });
    expect(refused.status).toBe(503);
    expect(refused.body.message).toMatch(UNAVAILABLE);
    expectOneKey(`portal:payout-account:${second.id}`, OUTLASTING);
    const kept = await userItem(second.id);
    expect(kept?.stripeID ?? null).toBeNull();
    expect(kept?.isAccountCreated).toBe(before?.isAccountCreated);
    expect(await accountsOf(second.id)).toHaveLength(workDone(fault));

    // Later, the same form from another address (each call here comes from its own): the kept terms
    // acceptance makes the parameters the same, so Stripe replays the account it made, and no other.
    const again = await call(createAccount, { body: payoutAccountForm, headers: auth(second.token) });
    expect(again.status).toBe(200);
    const accounts = await accountsOf(second.id);
    expect(accounts).toHaveLength(1);
    expect((again.body.user as { stripeID: string }).stripeID).toBe(accounts[0]?.id);
    expect(await userItem(second.id)).toMatchObject({ stripeID: accounts[0]?.id, isAccountCreated: 1 });
  });

  it('transfer: the retries make one transfer; after they give up, the admin reads why, the commission stays in processing, and trying again sends it once', async () => {
    const who = await payableMember();
    const once = await createCommission({ memberId: who.id, memberEmail: who.email, amountCents: 410 });
    faults.inject({ method: 'POST', path: '/v1/transfers', fault });
    expect((await send(once.id)).status).toBe(200);
    expectOneKey(`portal:transfer:${once.id}:0`, 1);
    expect(await transfersFor(who.accountId, once.id)).toHaveLength(1);

    faults.clear();
    const commission = await createCommission({ memberId: who.id, memberEmail: who.email, amountCents: 420 });
    const before = await item(commissionKey(commission.id));
    const countersBefore = await counters();
    faults.inject({ method: 'POST', path: '/v1/transfers', fault, times: OUTLASTING });
    const refused = await send(commission.id);
    expect(refused.status).toBe(503);
    expect(refused.body.message).toBe('Stripe did not answer. Nothing was sent twice; try again in a minute.');
    expectOneKey(`portal:transfer:${commission.id}:0`, OUTLASTING);
    // Where it was: in processing, no transfer id, the same stage and counters (the pending marker
    // aside), and the same attempt: a fault of the network is no refusal, the retry keeps the key.
    const { transferPendingAt, transferAttempt, ...kept } = (await item(commissionKey(commission.id))) ?? {};
    expect(typeof transferPendingAt).toBe('string');
    expect(transferAttempt).toBe(0);
    expect(kept).toEqual(before);
    expect(await counters()).toEqual(countersBefore);
    expect(await transfersFor(who.accountId, commission.id)).toHaveLength(workDone(fault));

    const again = await send(commission.id);
    expect(again.status).toBe(200);
    expect((again.body.commission as { state: string }).state).toBe('in_stripe');
    const transfers = await transfersFor(who.accountId, commission.id);
    expect(transfers).toHaveLength(1);
    expect(await item(commissionKey(commission.id))).toMatchObject({
      isInCustomersAccount: 1,
      transferId: transfers[0]?.id,
    });
    expect((await counters()).toStripeCount).toBe(countersBefore.toStripeCount! - 1);
  });

  it('payout: the retries make one payout; after they give up, the admin reads why, the commission stays to be paid, and trying again pays it once', async () => {
    const who = await payableMember();
    const once = await createCommission({ memberId: who.id, memberEmail: who.email, amountCents: 310 });
    expect((await send(once.id)).status).toBe(200);
    faults.inject({ method: 'POST', path: '/v1/payouts', fault });
    expect((await pay(once.id)).status).toBe(200);
    expectOneKey(`portal:payout:${once.id}:0`, 1);
    expect(await payoutsFor(who.accountId, once.id)).toHaveLength(1);

    faults.clear();
    const commission = await createCommission({ memberId: who.id, memberEmail: who.email, amountCents: 320 });
    expect((await send(commission.id)).status).toBe(200);
    const before = await item(commissionKey(commission.id));
    const countersBefore = await counters();
    faults.inject({ method: 'POST', path: '/v1/payouts', fault, times: OUTLASTING });
    const refused = await pay(commission.id);
    expect(refused.status).toBe(503);
    expect(refused.body.message).toBe('Stripe did not answer. Nothing was paid out twice; try again in a minute.');
    expectOneKey(`portal:payout:${commission.id}:0`, OUTLASTING);
    // Where it was: in Stripe, not paid, no payout id, the same counters (the attempt marker aside).
    const { payoutAttempt, payoutPendingAt: _pending, ...kept } = (await item(commissionKey(commission.id))) ?? {};
    expect(payoutAttempt).toBe(0);
    expect(kept).toEqual(before);
    expect(await counters()).toEqual(countersBefore);
    expect(await payoutsFor(who.accountId, commission.id)).toHaveLength(workDone(fault));

    const again = await pay(commission.id);
    expect(again.status).toBe(200);
    expect((again.body.commission as { state: string }).state).toBe('paid');
    const payouts = await payoutsFor(who.accountId, commission.id);
    expect(payouts).toHaveLength(1);
    expect(await item(commissionKey(commission.id))).toMatchObject({ isPayed: 1, payoutId: payouts[0]?.id });
  });
});

/** Posts one of the emulator's (connected accounts') events to the Connect endpoint, signed as Stripe signs it. */
function deliver(event: Stripe.Event) {
  const payload = JSON.stringify(event);
  return call(connectWebhook, {
    rawBody: payload,
    headers: {
      'stripe-signature': signature(payload, process.env.STRIPE_CONNECT_WEBHOOK_SECRET!, Math.floor(Date.now() / 1000)),
    },
    path: '/api/stripeConnectWebhook',
  });
}

/**
 * The payout's event for a commission, as the emulator sent it to the connected account (a
 * `payout.paid` at the payout's arrival date: the emulator's clock is moved there).
 */
async function payoutEvent(type: 'payout.paid' | 'payout.failed', accountId: string, commissionId: string) {
  await emulator.idle();
  if (type === 'payout.paid') {
    const payouts = (await stripe.payouts.list({ limit: 100 }, { stripeAccount: accountId })).data;
    const arrivals = payouts.filter((payout) => payout.status === 'in_transit').map((payout) => payout.arrival_date);
    if (arrivals.length) await emulator.clock.advance(Math.max(0, Math.max(...arrivals) * 1000 - emulator.clock.now()));
    await emulator.idle();
  }
  const events = (await stripe.events.list({ type, limit: 100 }, { stripeAccount: accountId })).data.filter(
    (event) => (event.data.object as Stripe.Payout).metadata?.commissionId === commissionId,
  );
  expect(events).toHaveLength(1);
  return events[0]!;
}

describe('a payout event that arrives before the payout is stored (its answer was lost)', () => {
  it('payout.paid is kept on the commission; the retry stores the same payout; a redelivery changes nothing', async () => {
    const who = await payableMember();
    const commission = await createCommission({ memberId: who.id, memberEmail: who.email, amountCents: 330 });
    expect((await send(commission.id)).status).toBe(200);
    faults.inject({ method: 'POST', path: '/v1/payouts', fault: { kind: 'drop' }, times: OUTLASTING });
    expect((await pay(commission.id)).status).toBe(503);
    const paid = await payoutEvent('payout.paid', who.accountId, commission.id);
    const payoutId = (paid.data.object as Stripe.Payout).id;

    expect((await deliver(paid)).status).toBe(200);
    const early = await item(commissionKey(commission.id));
    expect(early).toMatchObject({ isPayed: 0, payoutId: null, payoutAttempt: 0 });
    expect(typeof early?.payoutPaidAt).toBe('string');

    const again = await pay(commission.id);
    expect(again.status).toBe(200);
    const payouts = await payoutsFor(who.accountId, commission.id);
    expect(payouts.map((payout) => payout.id)).toEqual([payoutId]);
    const settled = await item(commissionKey(commission.id));
    expect(settled).toMatchObject({ isPayed: 1, payoutId: payoutId, payoutPaidAt: early?.payoutPaidAt });
    expect((await deliver(paid)).status).toBe(200);
    expect(await item(commissionKey(commission.id))).toEqual(settled);
  });

  it('payout.failed records the failure and moves the attempt on, so the retry makes a new payout, not a replay of the failed one', async () => {
    const who = await payableMember(PAYOUT_FAILING_DEBIT_CARD);
    const commission = await createCommission({ memberId: who.id, memberEmail: who.email, amountCents: 340 });
    expect((await send(commission.id)).status).toBe(200);
    const countersBefore = await counters();
    faults.inject({ method: 'POST', path: '/v1/payouts', fault: { kind: 'drop' }, times: OUTLASTING });
    expect((await pay(commission.id)).status).toBe(503);
    const failed = await payoutEvent('payout.failed', who.accountId, commission.id);

    expect((await deliver(failed)).status).toBe(200);
    const recorded = await item(commissionKey(commission.id));
    expect(recorded).toMatchObject({ isPayed: 0, payoutId: null, payoutAttempt: 1 });
    expect(recorded?.payoutFailure).toBe('The bank could not process this payout.');
    expect(await counters()).toEqual(countersBefore);
    expect((await deliver(failed)).status).toBe(200);
    expect(await item(commissionKey(commission.id))).toEqual(recorded);

    // The failed payout's money is back on the member's balance: the next attempt is a new payout.
    faults.clear();
    expect((await pay(commission.id)).status).toBe(200);
    const payouts = await payoutsFor(who.accountId, commission.id);
    expect(payouts.map((payout) => payout.metadata?.attempt).sort()).toEqual(['0', '1']);
  });
});
