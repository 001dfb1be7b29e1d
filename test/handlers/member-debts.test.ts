import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../shared/src/db/table';
import { clock } from '../../functions/src/config/clock';
import { createCommission, item } from './commission-fixtures';
import { auth, call, tokenFor, type CallResult } from './helpers';
import { mailsTo } from './outbox';
import { fundPlatform, ownStripe, type OwnStripe } from './own-stripe';
import { customer, markFulfilled, paidCheckout, payableMember, product, type PayableMember } from './sales-helpers';

/**
 * What a member still owes after a clawback (issue 34: "a clawback taken from the member's next
 * payouts leaves no figure of what is still owed"): the admin's /api/getMemberDebts lists each
 * member who owes, with the amount, and the member's withdrawal quote says it; each payout that
 * nets the debt lowers it, and the payout that nets the last cent takes the member off the list.
 * A real refund after payout makes the debt (the emulator's charge, transfer and payout), so the
 * list is what the ledger's own transaction wrote.
 */
let own: OwnStripe | undefined;
let stripe: Stripe;
let admin: string;

const { handler: confirmCheckout } = await import('../../functions/src/handlers/confirm-checkout');
const { handler: addToStripe } = await import('../../functions/src/handlers/add-commission-to-stripe');
const { handler: payToMember } = await import('../../functions/src/handlers/pay-commission-to-member');
const { handler: refundOrder } = await import('../../functions/src/handlers/refund-order');
const { handler: runBatch } = await import('../../functions/src/handlers/run-payout-batch');
const { handler: getMemberDebts } = await import('../../functions/src/handlers/get-member-debts');
const { handler: quote } = await import('../../functions/src/handlers/get-withdrawal-quote');
const { refunds } = await import('../../functions/src/composition');

beforeAll(async () => {
  own = await ownStripe('member-debts', {
    secrets: { account: 'whsec_member_debts', connect: 'whsec_member_debts_connect' },
    receive: () => Promise.resolve({ status: 200, body: {} }),
  });
  ({ stripe } = own);
  admin = await tokenFor(true);
  // Commissions of orders entered by hand draw on the platform's available balance.
  await fundPlatform(stripe, 1_000_000);
});

afterAll(() => own?.stop());

const adminCall = (handler: Parameters<typeof call>[0], body: Record<string, unknown>) =>
  call(handler, { body, headers: auth(admin) });

async function at<T>(time: number, work: () => Promise<T>): Promise<T> {
  const real = clock.now;
  clock.now = () => time;
  try {
    return await work();
  } finally {
    clock.now = real;
  }
}

/** A card sale through the member's link, fulfilled, sent and paid out; then refunded by `refundCents`: a clawback. */
async function clawedBack(who: PayableMember, refundCents: number): Promise<string> {
  const paymentIntentId = await paidCheckout(stripe, await product(3333), 3333, 3, {
    ref: who.shareCode,
    customer,
    paymentMethod: 'pm_card_bypassPending',
  });
  expect((await call(confirmCheckout, { body: { paymentIntentId } })).status).toBe(200);
  const order = (await refunds.store.orderOfPayment(paymentIntentId))!;
  await markFulfilled(admin, order.id);
  const commission = (await refunds.store.getCommission(order.commissionId!))!;
  await at(commission.availableAt! + 1, async () => {
    expect((await adminCall(addToStripe, { id: commission.id })).status).toBe(200);
    expect((await adminCall(payToMember, { id: commission.id })).status).toBe(200);
  });
  const refunded = await adminCall(refundOrder, {
    id: order.id,
    reason: 'requested_by_customer',
    amountCents: refundCents,
  });
  expect(refunded.status).toBe(200);
  return order.id;
}

/** Every debt the admin's list holds, all pages. */
async function allDebts(limit = 2): Promise<{ member: { id: string; email: string }; owed: number }[]> {
  const found: { member: { id: string; email: string }; owed: number }[] = [];
  let cursor: string | undefined;
  do {
    const page: CallResult = await adminCall(getMemberDebts, { limit, ...(cursor ? { cursor } : {}) });
    expect(page.status).toBe(200);
    found.push(...(page.body.items as typeof found));
    cursor = (page.body.nextCursor as string | null) ?? undefined;
  } while (cursor);
  return found;
}

const debtOf = async (memberId: string) => (await allDebts()).find((debt) => debt.member.id === memberId);

const pay = (memberId: string) =>
  adminCall(runBatch, { step: 'pay', memberId, requestId: randomUUID() }) as Promise<CallResult>;

describe('what a member still owes after a clawback', () => {
  it('is listed for the admin and quoted to the member, lowered by each payout that nets it, and gone at 0', async () => {
    const who = await payableMember(stripe);
    const other = await payableMember(stripe);
    // $99.99 paid out with a $9.99 commission; $12.34 refunded: round(999 × 1234 / 9999) = $1.23 clawed back.
    await clawedBack(who, 1234);
    // $49.99 refunded of the other's: round(999 × 4999 / 9999) = $4.99.
    await clawedBack(other, 4999);
    expect(await debtOf(who.id)).toEqual({ member: { id: who.id, email: who.email }, owed: 1.23 });
    expect(await debtOf(other.id)).toEqual({ member: { id: other.id, email: other.email }, owed: 4.99 });
    // Each member is told once that the refunded share of a paid commission comes off their next payouts.
    const told = mailsTo(who.email).filter((mail) => mail.subject.startsWith('A sale you made was refunded'));
    expect(told).toHaveLength(1);
    expect(told[0]!.text).toContain(
      'Your commission for it is now $8.76 (it was $9.99). The $1.23 difference had already been paid to you, so it comes off your next payouts.',
    );
    const quoted = await call(quote, { body: {}, headers: auth(who.token) });
    expect(quoted.status).toBe(200);
    expect(quoted.body.owed).toBe(1.23);

    // A $1.00 commission: wholly netted, no money moved; $0.23 still owed.
    await createCommission({ memberId: who.id, memberEmail: who.email, amountCents: 100 });
    const first = await pay(who.id);
    expect(first.status).toBe(200);
    expect((first.body.outcomes as Record<string, unknown>[])[0]).toMatchObject({ state: 'settled', netted: 1 });
    expect((await debtOf(who.id))?.owed).toBe(0.23);

    // A $5.00 commission: $0.23 netted, $4.77 paid; the debt is settled and leaves the list.
    await createCommission({ memberId: who.id, memberEmail: who.email, amountCents: 500 });
    const second = await pay(who.id);
    expect((second.body.outcomes as Record<string, unknown>[])[0]).toMatchObject({
      state: 'paid',
      netted: 0.23,
      payout: 4.77,
    });
    expect(await debtOf(who.id)).toBeUndefined();
    expect(await item(keys.memberOwed(who.id))).toMatchObject({ owedCents: 0 });
    expect((await call(quote, { body: {}, headers: auth(who.token) })).body.owed).toBe(0);
    // The other member's debt is untouched.
    expect((await debtOf(other.id))?.owed).toBe(4.99);
  });

  it('refuses a cursor of another list in words', async () => {
    const foreign = Buffer.from(
      JSON.stringify({ pk: 'COMMISSION#x', sk: 'COMMISSION', gsi1pk: 'COMMISSIONS', gsi1sk: 'x' }),
    ).toString('base64url');
    const answer = await adminCall(getMemberDebts, { cursor: foreign });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe('The page cursor is not valid; start again from the first page.');
  });
});
