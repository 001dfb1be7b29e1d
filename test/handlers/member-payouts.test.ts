import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../shared/src/db/table';
import { signature, type StripeEmulator } from '../../infra/local/stripe';
import { StripeFaults } from '../../infra/local/stripe/testing';
import { commissionKey, createCommission, earningsKey, item } from './commission-fixtures';
import { auth, call, payoutAccountForm, tokenFor } from './helpers';
import { mailsTo as mailsInOutbox } from './outbox';
import { fundPlatform, ownStripe, toEndpointOf, type OwnStripe } from './own-stripe';
import { debitCardToken, payableMember, type PayableMember } from './sales-helpers';

/**
 * What a member reads of their payouts after the happy path (issue 34), through the handlers and
 * the real `stripe` SDK against this file's own emulator (its ledger and clock the witnesses): a
 * failed payout (their mail, once, and the quote's banner with the money waiting again), funds
 * still pending at Stripe (the day they become available, nothing claimed, nothing blocked), a
 * payout refused at its create (nothing left open), and Stripe's identity check (Verifying, Needs
 * attention with what to correct, the correction sent to Stripe, Ready).
 */
const secret = 'whsec_member_payouts_secret';
const connectSecret = 'whsec_member_payouts_connect_secret';
const VERIFICATION_MS = 60_000;
const faults = new StripeFaults();
let own: OwnStripe | undefined;
let emulator: StripeEmulator;
let stripe: Stripe;

const { handler: webhook } = await import('../../functions/src/handlers/stripe-webhook');
const { handler: connectWebhook } = await import('../../functions/src/handlers/stripe-connect-webhook');
const { handler: quoteHandler } = await import('../../functions/src/handlers/get-withdrawal-quote');
const { handler: withdrawHandler } = await import('../../functions/src/handlers/withdraw');
const { handler: updateHandler } = await import('../../functions/src/handlers/update-payout-account');
const { handler: readHandler } = await import('../../functions/src/handlers/get-payout-account');

beforeAll(async () => {
  const post = toEndpointOf(webhook, connectWebhook);
  own = await ownStripe('member-payouts', {
    secrets: { account: secret, connect: connectSecret },
    receive: ({ body, signature }) => post(body, signature),
    webhookRetryDelaysMs: [50, 200],
    verificationDelayMs: VERIFICATION_MS,
    faults,
  });
  ({ emulator, stripe } = own);
  await fundPlatform(stripe, 1_000_000);
});

afterAll(() => own?.stop());

const quote = (who: PayableMember) => call(quoteHandler, { body: {}, headers: auth(who.token) });
const withdraw = (who: PayableMember, body: Record<string, unknown>) =>
  call(withdrawHandler, { body: { requestId: randomUUID(), ...body }, headers: auth(who.token) });
const commissionFor = (who: PayableMember, amountCents: number, chargeId?: string) =>
  createCommission({ memberId: who.id, memberEmail: who.email, amountCents, ...(chargeId ? { chargeId } : {}) });
const payoutsOf = async (accountId: string) =>
  (await stripe.payouts.list({ limit: 100 }, { stripeAccount: accountId })).data;
const mailsTo = (email: string) =>
  mailsInOutbox(email).filter((mail) => !mail.subject.startsWith('Verify your e-mail'));

/** Posts a connected account's event to the Connect endpoint again, freshly signed (a replay). */
const deliverConnect = (payload: string) =>
  call(connectWebhook, {
    rawBody: payload,
    headers: { 'stripe-signature': signature(payload, connectSecret, Math.floor(Date.now() / 1000)) },
    path: '/api/stripeConnectWebhook',
  });

/** An admin's "Pay all" for one member (a standard payout), settled at the emulator: its payout. */
async function payAll(who: PayableMember): Promise<Stripe.Payout | undefined> {
  const { handler: runBatch } = await import('../../functions/src/handlers/run-payout-batch');
  const paid = await call(runBatch, {
    body: { step: 'pay', requestId: randomUUID(), memberId: who.id },
    headers: auth(await tokenFor(true)),
  });
  expect(paid.status).toBe(200);
  await emulator.idle();
  return (await payoutsOf(who.accountId))[0];
}

describe('a payout the card’s bank fails (payout.failed)', () => {
  it('mails the member once, why and what to do; the quote shows the failure and the money as available again', async () => {
    const { PAYOUT_FAILING_DEBIT_CARD } = await import('../../infra/local/stripe');
    const who = await payableMember(stripe, { card: PAYOUT_FAILING_DEBIT_CARD });
    await commissionFor(who, 2500);
    const quoted = await quote(who);
    expect(quoted.body).toMatchObject({ available: 25, canWithdraw: true, failedPayout: null, pending: [] });
    // An admin's "Pay all" pays it (standard: an instant fee would not fit the balance), and the card's bank fails it.
    const payout = await payAll(who);
    expect(payout).toMatchObject({ amount: 2500, status: 'failed', failure_code: 'could_not_process' });
    const terms = { receive: 25 };

    // Three replays of the event: still one mail.
    const [event] = (await stripe.events.list({ type: 'payout.failed', limit: 10 }, { stripeAccount: who.accountId }))
      .data;
    for (let round = 0; round < 3; round++) expect((await deliverConnect(JSON.stringify(event))).status).toBe(200);
    const failedMails = mailsTo(who.email).filter((mail) => mail.subject.includes('failed'));
    expect(failedMails.map((mail) => mail.subject)).toEqual([`Your payout of $${terms.receive.toFixed(2)} failed`]);
    expect(failedMails[0]!.text).toContain(
      `Your payout of $${terms.receive.toFixed(2)} failed: your bank could not process it.`,
    );
    expect(failedMails[0]!.text).toContain('Replace your card on My Account (Payout Methods)');

    // The money is in the member's Stripe balance again, available, and the quote says what happened.
    const after = await quote(who);
    expect(after.body).toMatchObject({
      canWithdraw: true,
      failedPayout: { amount: terms.receive, reason: 'your bank could not process it' },
    });
    expect((after.body as { available: number }).available).toBeGreaterThanOrEqual(terms.receive);

    // A new card, and the next withdrawal pays it: the banner is gone.
    const { handler: replace } = await import('../../functions/src/handlers/replace-payout-method');
    const token = await debitCardToken(stripe, '4000056655665556');
    expect((await call(replace, { body: { id: who.accountId, token }, headers: auth(who.token) })).status).toBe(200);
    const again = (await quote(who)).body as { receive: number; fee: number };
    expect((await withdraw(who, { receive: again.receive, fee: again.fee })).status).toBe(200);
    expect((await quote(who)).body).toMatchObject({ failedPayout: null });
  });
});

describe('a standard payout paid, then failed (the bank returns it)', () => {
  it('puts the commission back to waiting and the paid total back, mails once why and what to do, and the member withdraws it again', async () => {
    const who = await payableMember(stripe);
    const commission = await commissionFor(who, 2500);
    const earnedBefore = ((await item(earningsKey(who.id))) ?? {}) as Record<string, number>;
    // An admin's "Pay all": a standard payout, in transit until its arrival_date.
    const payout = await payAll(who);
    expect(payout).toMatchObject({ amount: 2500, method: 'standard', status: 'in_transit' });

    // Its arrival_date: Stripe marks it paid (payout.paid), the member is told it is on its way.
    await emulator.clock.advance(Math.max(0, payout!.arrival_date * 1000 - emulator.clock.now()) + 1000);
    await emulator.idle();
    expect((await stripe.payouts.retrieve(payout!.id, {}, { stripeAccount: who.accountId })).status).toBe('paid');
    expect(await item(commissionKey(commission.id))).toMatchObject({ status: 'paid', payoutId: payout!.id });
    const earnedPaid = (await item(earningsKey(who.id))) as Record<string, number>;
    expect((earnedPaid.paidCents ?? 0) - (earnedBefore.paidCents ?? 0)).toBe(2500);
    expect(mailsTo(who.email).map((mail) => mail.subject)).toContain('Your payout of $25.00 is on its way');

    // Days later the bank returns it: Stripe fails the paid payout (payout.failed), the money back in the balance.
    emulator.returnPayout(who.accountId, payout!.id, 'account_closed');
    await emulator.idle();
    expect((await stripe.payouts.retrieve(payout!.id, {}, { stripeAccount: who.accountId })).status).toBe('failed');
    const balance = await stripe.balance.retrieve({}, { stripeAccount: who.accountId });
    expect(balance.available.find((entry) => entry.currency === 'usd')?.amount).toBe(2500);

    // Redelivered, both events: payout.paid (its payout failed since: ignored) and payout.failed, three times each.
    const eventsOf = async (type: string) =>
      (await stripe.events.list({ type, limit: 10 }, { stripeAccount: who.accountId })).data.filter(
        (event) => (event.data.object as Stripe.Payout).id === payout!.id,
      );
    const [paidEvent] = await eventsOf('payout.paid');
    const [failedEvent] = await eventsOf('payout.failed');
    for (let round = 0; round < 3; round++) {
      for (const event of [paidEvent, failedEvent]) {
        expect((await deliverConnect(JSON.stringify(event))).status).toBe(200);
      }
    }

    // The commission waits again in Stripe, the paid total is back where it was, once.
    expect(await item(commissionKey(commission.id))).toMatchObject({
      status: 'in_stripe',
      failedPayoutId: payout!.id,
      payoutId: null,
    });
    const earnedAfter = (await item(earningsKey(who.id))) as Record<string, number>;
    expect((earnedAfter.paidCents ?? 0) - (earnedBefore.paidCents ?? 0)).toBe(0);
    // The member's mail, once: it failed, why, what to do; and no second "on its way".
    const subjects = mailsTo(who.email).map((mail) => mail.subject);
    expect(subjects.filter((subject) => subject === 'Your payout of $25.00 failed')).toHaveLength(1);
    expect(subjects.filter((subject) => subject === 'Your payout of $25.00 is on its way')).toHaveLength(1);
    const failedMail = mailsTo(who.email).find((mail) => mail.subject === 'Your payout of $25.00 failed')!;
    expect(failedMail.text).toContain('Your payout of $25.00 failed: the account behind your card is closed.');
    expect(failedMail.text).toContain('Replace your card on My Account (Payout Methods)');
    // My Account's banner (the quote): it failed, why in the mail's words; the $25.00 available again at Stripe and in the portal.
    expect((await quote(who)).body).toMatchObject({
      available: 25,
      canWithdraw: true,
      failedPayout: { amount: 25, reason: 'the account behind your card is closed' },
    });

    // A new card, and the member withdraws it again; the banner goes.
    const { handler: replace } = await import('../../functions/src/handlers/replace-payout-method');
    const token = await debitCardToken(stripe, '4000056655665556');
    expect((await call(replace, { body: { id: who.accountId, token }, headers: auth(who.token) })).status).toBe(200);
    const again = (await quote(who)).body as { receive: number; fee: number };
    expect((await withdraw(who, { receive: again.receive, fee: again.fee })).status).toBe(200);
    expect(await item(commissionKey(commission.id))).toMatchObject({ status: 'paid' });
    expect((await quote(who)).body).toMatchObject({ failedPayout: null });
  });
});

describe('an instant payout whose fee the member paid, failed by the card’s bank', () => {
  it('gives the member’s fee back once: the balance at Stripe is what the portal shows available, and the member withdraws it', async () => {
    const { PAYOUT_FAILING_DEBIT_CARD } = await import('../../infra/local/stripe');
    const who = await payableMember(stripe, { card: PAYOUT_FAILING_DEBIT_CARD });
    // One card sale whose funds are available at once; two commissions on it.
    const sale = await stripe.paymentIntents.create({
      amount: 20_000,
      currency: 'usd',
      payment_method: 'pm_card_bypassPending',
      confirm: true,
    });
    await commissionFor(who, 4000, String(sale.latest_charge));
    await commissionFor(who, 2000, String(sale.latest_charge));
    const quoted = await quote(who);
    // Decision 0270: the member's 59¢ comes off the sale's transfer; the payout is that transfer.
    expect(quoted.body).toMatchObject({ available: 60, method: 'instant', fee: 0.59, receive: 59.41 });
    expect((await withdraw(who, { receive: 59.41, fee: 0.59 })).status).toBe(200);
    await emulator.idle();
    const [payout] = await payoutsOf(who.accountId);
    expect(payout).toMatchObject({ amount: 5941, method: 'instant', status: 'failed' });

    // Stripe delivered payout.failed; three redeliveries of it move nothing more.
    const [event] = (await stripe.events.list({ type: 'payout.failed', limit: 10 }, { stripeAccount: who.accountId }))
      .data;
    for (let round = 0; round < 3; round++) expect((await deliverConnect(JSON.stringify(event))).status).toBe(200);

    // The emulator's ledger: the sale's transfer less the fee, then the fee given back once.
    const transfers = (await stripe.transfers.list({ destination: who.accountId, limit: 100 })).data;
    expect(transfers.map((transfer) => transfer.amount).sort((a, b) => a - b)).toEqual([59, 5941]);
    const feeBack = transfers.find((transfer) => transfer.amount === 59)!;
    expect(feeBack.metadata).toMatchObject({ feeBack: 'instant-fee', payoutId: payout!.id });
    expect(feeBack.source_transaction).toBe(String(sale.latest_charge));
    const balance = await stripe.balance.retrieve({}, { stripeAccount: who.accountId });
    expect(balance.available.find((entry) => entry.currency === 'usd')?.amount).toBe(6000);
    // What the portal shows: the whole $60.00 available (nothing "still pending at Stripe"), and why.
    const after = await quote(who);
    expect(after.body).toMatchObject({
      available: 60,
      pending: [],
      canWithdraw: true,
      failedPayout: { amount: 59.41, reason: 'your bank could not process it' },
    });
    // The member's mail, once: the payout, why, and the fee given back with the money.
    const failedMails = mailsTo(who.email).filter((mail) => mail.subject.includes('failed'));
    expect(failedMails.map((mail) => mail.subject)).toEqual(['Your payout of $59.41 failed']);
    expect(failedMails[0]!.text).toContain(
      'The money is back in your balance with the $0.59 instant fee you paid, $60.00 in all, waiting to be paid.',
    );

    // Reconciliation knows the fee's transfer (the batch names it): no difference about it.
    const { handler: reconcileHandler } = await import('../../functions/src/handlers/reconcile');
    const today = new Date().toISOString().slice(0, 10);
    const reconciled = await call(reconcileHandler, {
      body: { from: today, to: today },
      headers: auth(await tokenFor(true)),
    });
    expect(reconciled.status).toBe(200);
    expect(JSON.stringify(reconciled.body)).toContain('"differences"');
    expect(JSON.stringify(reconciled.body)).not.toContain(feeBack.id);

    // A new card: the member withdraws it all (standard: the commissions are in Stripe already, no fee).
    const { handler: replace } = await import('../../functions/src/handlers/replace-payout-method');
    const token = await debitCardToken(stripe, '4000056655665556');
    expect((await call(replace, { body: { id: who.accountId, token }, headers: auth(who.token) })).status).toBe(200);
    const again = (await quote(who)).body as { receive: number; fee: number };
    expect(again).toMatchObject({ receive: 60, fee: 0 });
    const paid = await withdraw(who, { receive: again.receive, fee: again.fee });
    expect(paid.status).toBe(200);
    expect(paid.body.outcome).toMatchObject({ state: 'paid', payout: 60 });
    await emulator.idle();
    const second = (await payoutsOf(who.accountId)).find((candidate) => candidate.id !== payout!.id);
    expect(second).toMatchObject({ amount: 6000, status: 'in_transit' });
    const emptied = await stripe.balance.retrieve({}, { stripeAccount: who.accountId });
    expect(emptied.available.find((entry) => entry.currency === 'usd')?.amount).toBe(0);
    expect((await quote(who)).body).toMatchObject({ available: 0, failedPayout: null });
  });
});

describe('funds still pending at Stripe (a withdrawal)', () => {
  it('quotes what Stripe has available and the pending amount with its day; a withdrawal says why in the member’s words, claiming nothing', async () => {
    const who = await payableMember(stripe);
    const sale = await stripe.paymentIntents.create({
      amount: 20_000,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
    });
    const commission = await commissionFor(who, 1240, String(sale.latest_charge));
    const [funding] = (await stripe.balanceTransactions.list({ source: String(sale.latest_charge) })).data;
    const day = new Date(funding!.available_on * 1000).toLocaleDateString('en-GB', {
      day: 'numeric',
      month: 'short',
      timeZone: 'UTC',
    });
    const quoted = await quote(who);
    expect(quoted.body).toMatchObject({
      available: 0,
      canWithdraw: false,
      // The pending funds are listed apart (the screen shows each with its day), not repeated in the reason.
      reason: 'You can withdraw once your available balance reaches $10.00.',
      pending: [
        { amount: 12.4, availableOn: new Date(Math.floor(funding!.available_on / 86_400) * 86_400_000).toISOString() },
      ],
    });
    const refused = await withdraw(who, { receive: 12.4, fee: 0 });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(`Nothing is available to withdraw yet: $12.40 becomes available on ${day}.`);
    // Nothing claimed, no lock left, no money moved.
    expect(await item(keys.payoutLock(who.id))).toBeUndefined();
    expect(await item(commissionKey(commission.id))).toMatchObject({ status: 'processing' });
    expect(await payoutsOf(who.accountId)).toEqual([]);
  });

  it('a payout Stripe refuses at its create leaves nothing open: the money stays in the balance, the next withdrawal pays it', async () => {
    const who = await payableMember(stripe, { card: '4000056755665555' });
    const commission = await commissionFor(who, 3000);
    const terms = (await quote(who)).body as { receive: number; fee: number };
    expect(terms).toMatchObject({ receive: 30, fee: 0 });
    // The payout's create waits; meanwhile the account's balance is paid out by another payout.
    faults.inject({ method: 'POST', path: '/v1/payouts', fault: { kind: 'slow', ms: 1_500 } });
    const pending = withdraw(who, { receive: 30, fee: 0 });
    // Once the batch's payout is in flight (the fault took it), another payout empties the balance.
    for (let tries = 0; tries < 100 && faults.faulted.length === 0; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(faults.faulted.map((request) => request.path)).toEqual(['/v1/payouts']);
    await stripe.payouts.create({ amount: 3000, currency: 'usd' }, { stripeAccount: who.accountId });
    const refused = await pending;
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      'Stripe did not pay $30.00 to your card. The money stays in your balance, nothing is lost: withdraw again later, or it goes with the next daily payout.',
    );
    // The batch ended; the member's lock is free; the commission waits in Stripe, free for any payout.
    expect(await item(keys.payoutLock(who.id))).toBeUndefined();
    const stored = await item(commissionKey(commission.id));
    expect(stored).toMatchObject({ status: 'in_stripe' });
    expect(stored?.batchId).toBeUndefined();
    // Its money comes back to the balance: the next withdrawal (or daily job) pays it at once.
    await stripe.transfers.create({ amount: 3000, currency: 'usd', destination: who.accountId });
    const again = await quote(who);
    expect(again.body).toMatchObject({ canWithdraw: true, receive: 30, failedPayout: null });
    const paid = await withdraw(who, { receive: 30, fee: 0 });
    expect(paid.status).toBe(200);
    expect(await item(commissionKey(commission.id))).toMatchObject({ status: 'paid' });
  });
});

describe("Stripe's identity check (account.updated)", () => {
  const read = (token: string) => call(readHandler, { body: {}, headers: auth(token) });
  const stateOf = async (token: string) =>
    ((await read(token)).body.user as { payoutAccount?: Record<string, unknown> }).payoutAccount;

  it('Verifying, then Needs attention with what failed; the corrected details go to Stripe; Verifying, then Ready', async () => {
    // A date of birth Stripe's test mode does not verify (1990-05-05) with an ID number that does.
    const who = await payableMember(stripe, {
      form: { ...payoutAccountForm, dob_year: 1990, dob_month: 5, dob_day: 5, tax_id: '000000000' },
    });
    await emulator.idle();
    expect(await stateOf(who.token)).toMatchObject({ transfers: 'pending', errors: [] });

    await emulator.clock.advance(VERIFICATION_MS + 1_000);
    await emulator.idle();
    const failed = await stateOf(who.token);
    expect(failed).toMatchObject({
      transfers: 'inactive',
      errors: [{ code: 'verification_failed_keyed_identity', requirement: 'individual.verification.document' }],
    });
    expect(failed?.requirementsDue).toContain('individual.verification.document');
    // The member is mailed what failed, in the screen's words, and where to correct it: once.
    const verificationMails = () =>
      mailsTo(who.email).filter((mail) => mail.subject === 'Stripe could not verify your payout details');
    expect(verificationMails()).toHaveLength(1);
    expect(verificationMails()[0]!.text).toContain(
      'Stripe could not confirm who you are from your name, date of birth and Social Security number. Check them for typing errors.',
    );

    // A group half given is refused in words, and nothing is sent.
    const half = await call(updateHandler, { body: { dob_day: 1, dob_month: 1 }, headers: auth(who.token) });
    expect(half.status).toBe(400);
    expect(await stateOf(who.token)).toMatchObject({ transfers: 'inactive' });

    const corrected = await call(updateHandler, {
      body: { dob_day: 1, dob_month: 1, dob_year: 1901, tax_id: '000-00-0000' },
      headers: auth(who.token),
    });
    expect(corrected.status).toBe(200);
    expect((corrected.body.user as { payoutAccount: unknown }).payoutAccount).toMatchObject({
      transfers: 'pending',
      errors: [],
    });
    const account = await stripe.accounts.retrieve(who.accountId);
    expect(account.individual?.dob).toMatchObject({ day: 1, month: 1, year: 1901 });

    await emulator.clock.advance(VERIFICATION_MS + 1_000);
    await emulator.idle();
    expect(await stateOf(who.token)).toMatchObject({ transfers: 'active', errors: [], requirementsDue: [] });
    // Verified: no second mail.
    expect(verificationMails()).toHaveLength(1);
  });
});
