import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clock } from '../../functions/src/config/clock';
import { commissionShareOfRefund } from '../../shared/src/domain/money';
import { keys } from '../../shared/src/db/table';
import { item } from './commission-fixtures';
import { auth, call, tokenFor, type CallResult } from './helpers';
import { ownStripe, type OwnStripe } from './own-stripe';
import { customer, markFulfilled, paidCheckout, payableMember, product, type PayableMember } from './sales-helpers';

/**
 * Commission rules and the money after the sale (issue 39): at a rate other than 10 % a refund
 * takes the commission's exact share, a clawback after payout takes exactly what was paid, and
 * reconciliation compares Stripe's transfers with the amount each commission stored (never a
 * recomputed 10 %). This file's own emulator (no webhooks: each test's calls record what they do).
 */
let own: OwnStripe | undefined;
let stripe: Stripe;
let admin: string;

const { handler: confirmCheckout } = await import('../../functions/src/handlers/confirm-checkout');
const { handler: addToStripe } = await import('../../functions/src/handlers/add-commission-to-stripe');
const { handler: payToMember } = await import('../../functions/src/handlers/pay-commission-to-member');
const { handler: refundOrder } = await import('../../functions/src/handlers/refund-order');
const { handler: changeCommissionRule } = await import('../../functions/src/handlers/change-commission-rule');
const { handler: getCommissionRules } = await import('../../functions/src/handlers/get-commission-rules');
const { handler: reconcileHandler } = await import('../../functions/src/handlers/reconcile');
const { refunds } = await import('../../functions/src/composition');

beforeAll(async () => {
  own = await ownStripe('rules-money', {});
  ({ stripe } = own);
  admin = await tokenFor(true);
  // The sales helpers' products are of brand Lumo: 12.5 % on them, not the default's 10 %.
  const { version } = (await call(getCommissionRules, { body: {}, headers: auth(admin) })).body as { version: number };
  const made = await call(changeCommissionRule, {
    body: {
      action: 'create',
      version,
      rule: { scope: 'brand', value: 'Lumo', rate: { kind: 'percent', percent: '12.5' } },
    },
    headers: auth(admin),
  });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
});
afterAll(() => own?.stop());

const adminCall = (handler: Parameters<typeof call>[0], body: Record<string, unknown>): Promise<CallResult> =>
  call(handler, { body, headers: auth(admin) });

async function sale(who: PayableMember, unitCents: number, qty: number) {
  const paymentIntentId = await paidCheckout(stripe, await product(unitCents), unitCents, qty, {
    ref: who.shareCode,
    customer,
    paymentMethod: 'pm_card_bypassPending',
  });
  expect((await call(confirmCheckout, { body: { paymentIntentId } })).status).toBe(200);
  const order = (await refunds.store.orderOfPayment(paymentIntentId))!;
  return { orderId: order.id, commissionId: order.commissionId!, paymentIntentId };
}

async function paidOut(sold: { orderId: string; commissionId: string }) {
  await markFulfilled(admin, sold.orderId);
  const commission = (await refunds.store.getCommission(sold.commissionId))!;
  const real = clock.now;
  clock.now = () => commission.availableAt! + 1;
  try {
    expect((await adminCall(addToStripe, { id: sold.commissionId })).status).toBe(200);
    expect((await adminCall(payToMember, { id: sold.commissionId })).status).toBe(200);
  } finally {
    clock.now = real;
  }
}

describe('money at a rule’s rate', () => {
  it('takes a refund’s share of a 12.5 % commission to the cent, then cancels it at the rest', async () => {
    const who = await payableMember(stripe);
    // $33.33 × 3 = $99.99; 12.5 % of $33.33 = $4.16625, half up $4.17, × 3 = $12.51.
    const sold = await sale(who, 3333, 3);
    const stored = (await item(keys.commission(sold.commissionId))) as { amountCents: number; rule: { text: string } };
    expect(stored.amountCents).toBe(1251);
    expect(stored.rule.text).toBe('12.5 % for brand Lumo');
    const part = await adminCall(refundOrder, { id: sold.orderId, reason: 'requested_by_customer', amountCents: 1234 });
    expect(part.status, JSON.stringify(part.body)).toBe(200);
    // round(1251 × 1234 / 9999) = round(154.39) = 154 taken: $10.97 left.
    expect(commissionShareOfRefund(1251, 1234, 9999)).toBe(154);
    expect(part.body.commission).toMatchObject({ amount: 10.97, originalAmount: 12.51, rule: '12.5 % for brand Lumo' });
    const rest = await adminCall(refundOrder, { id: sold.orderId, reason: 'requested_by_customer' });
    expect(rest.body.commission).toMatchObject({ amount: 0, originalAmount: 12.51, status: 'cancelled' });
  });

  it('claws back exactly what a 12.5 % commission paid out, in parts to the cent, and reconciles with Stripe', async () => {
    const who = await payableMember(stripe);
    const sold = await sale(who, 3333, 3);
    await paidOut(sold);
    const [transfer] = (await stripe.transfers.list({ destination: who.accountId })).data;
    expect(transfer?.amount).toBe(1251);

    const part = await adminCall(refundOrder, { id: sold.orderId, reason: 'requested_by_customer', amountCents: 1234 });
    expect(part.status).toBe(200);
    expect(part.body.commission).toMatchObject({ status: 'paid', amount: 10.97, originalAmount: 12.51 });
    expect(((await item(keys.memberOwed(who.id))) as { owedCents: number }).owedCents).toBe(154);
    const rest = await adminCall(refundOrder, { id: sold.orderId, reason: 'requested_by_customer' });
    expect(rest.body.commission).toMatchObject({ status: 'clawed_back', amount: 0 });
    const { items, owedCents } = await refunds.store.clawbacks(who.id);
    expect(owedCents).toBe(1251);
    expect(items.map((entry) => entry.amountCents).sort((a, b) => a - b)).toEqual([154, 1097]);

    // A second sale paid out and kept: the ledger and Stripe agree at 12.5 %, nothing recomputed at 10 %.
    const kept = await sale(who, 2420, 1);
    await paidOut(kept);
    const today = new Date().toISOString().slice(0, 10);
    const result = await adminCall(reconcileHandler, { from: today, to: today });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body.differences).toEqual([]);
    expect((result.body.checked as Record<string, number>).commissions).toBeGreaterThanOrEqual(2);
    const transfers = (await stripe.transfers.list({ destination: who.accountId })).data.map((t) => t.amount);
    // 12.5 % of $24.20 = $3.025, half up $3.03.
    expect(transfers.sort((a, b) => a - b)).toEqual([303, 1251]);
  });
});
