import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  api,
  at,
  DESKTOP,
  ensureApprovedProduct,
  expectAccessible,
  logInQuickly,
  openBrowser,
  PHONE_390,
  type BrowserSession,
} from './browser';
import { formatMoney } from '../../shared/src/domain/format';
import { fulfilledOrders, fundPlatform, payoutMember, portalStripe, type PayoutMember } from './payout-member';

/**
 * After the happy path (issue 34), in a real browser at 390 and 1280 px with axe, against the
 * started portal and its Stripe emulator:
 * - a member with part of their balance still pending at Stripe sees the available figure and the
 *   pending one with its day; a withdrawal of more than is available is refused in their words
 *   before anything moves;
 * - a member who owes from a refund after payout sees it on My Account; the admin sees it on
 *   Payouts, and "Send all available" names the net amount;
 * - the logged-out pages log no 401, and a used reset link says so when it is opened.
 */
const VIEWPORTS = [PHONE_390, DESKTOP] as const;

const money = (dollars: number) => formatMoney(Math.round(dollars * 100));

interface Quote {
  available: number;
  receive: number;
  fee: number;
  owed: number;
  pending: { amount: number; availableOn: string | null }[];
}

type Session = { access_token: string };
const adminToken = async () => (await api<Session>('login', inject('accounts').admin)).access_token;

/** A card sale through the member's link, paid with `card`, reported by the customer's page; its order number. */
async function cardSale(member: PayoutMember, qty: number, card: string): Promise<string> {
  await ensureApprovedProduct();
  const { items } = await api<{ items: { id: string; dropshipping_price_us: number }[] }>(
    'getApprovedProducts',
    { limit: 1 },
    member.session.access_token,
  );
  const product = items[0]!;
  const created = await api<{ clientSecret: string }>('getPaymentIntent', {
    id: product.id,
    amount: Math.round(product.dropshipping_price_us * 100) * qty,
    qty,
    ref: member.session.userProfile.shareCode,
    customer: {
      name: 'Pat Pending',
      email: `e2e-buyer-${randomUUID().slice(0, 8)}@example.com`,
      address: { line1: '1 Main St', city: 'Springfield', state: 'IL', postal_code: '62701' },
    },
  });
  const intentId = created.clientSecret.split('_secret_')[0]!;
  await portalStripe().paymentIntents.confirm(intentId, { payment_method: card });
  return (await api<{ orderID: string }>('confirmCheckout', { paymentIntentId: intentId })).orderID;
}

/** The admin works a card sale's order to fulfilled; answers its commission's id. */
async function fulfil(orderNumber: string, admin: string): Promise<{ orderId: string; commissionId: string }> {
  const { items } = await api<{ items: { id: string; orderID: string }[] }>(
    'getOrders',
    { type: 'all', orderNumber },
    admin,
  );
  const order = items.find((item) => item.orderID === orderNumber)!;
  for (const step of ['markAsOrdered', 'markAsShipped', 'markAsFufilled']) await api(step, { id: order.id }, admin);
  const commissions = await api<{ items: { id: string; orderID: string }[] }>(
    'getCommisions',
    { limit: 100, status: 'available' },
    admin,
  );
  return { orderId: order.id, commissionId: commissions.items.find((c) => c.orderID === orderNumber)!.id };
}

describe('a member whose balance is partly pending at Stripe', () => {
  let member: PayoutMember;
  let pendingDay = '';
  let quote: Quote;

  beforeAll(async () => {
    await fundPlatform(100_000);
    member = await payoutMember({ tag: 'pending', firstName: 'Penny', lastName: 'Ding', debitCard: true });
    // Available now: an order entered by hand (its commission from the platform's kept balance).
    await fulfilledOrders(member, { count: 1, qty: 10 });
    // Pending for days: a card sale paid with Stripe's ordinary test card.
    const admin = await adminToken();
    const orderNumber = await cardSale(member, 2, 'pm_card_visa');
    await fulfil(orderNumber, admin);
    quote = await api<Quote>('getWithdrawalQuote', {}, member.session.access_token);
    // Some available now, some pending with its day.
    expect(quote.available).toBeGreaterThan(10);
    expect(quote.pending).toHaveLength(1);
    pendingDay = new Date(quote.pending[0]!.availableOn!).toLocaleDateString('en-GB', {
      day: 'numeric',
      month: 'short',
      timeZone: 'UTC',
    });
  });

  for (const viewport of VIEWPORTS) {
    it(`shows what is available and what is pending with its day, and refuses more than is available in words, at ${viewport.width} px`, async () => {
      const session = await openBrowser({ viewport });
      try {
        const { page } = session;
        await logInQuickly(page, member, '/my_account');
        const available = page.getByTestId('withdraw-available');
        await available.waitFor();
        expect(await available.textContent()).toBe(money(quote.available));
        const pending = quote.pending[0]!.amount;
        expect(await page.getByTestId('withdraw-pending').textContent()).toBe(
          `${money(pending)} becomes available on ${pendingDay}`,
        );
        // The button and the words beside it agree: the fee, and what reaches the card (to the cent).
        expect(Math.round((quote.receive + quote.fee) * 100)).toBe(Math.round(quote.available * 100));
        await page.getByRole('button', { name: `Withdraw ${money(quote.available)}` }).waitFor();
        expect(await page.getByTestId('withdraw-arrives').textContent()).toBe(
          `Instant payout: Stripe's fee is ${money(quote.fee)}, so ${money(quote.receive)} reaches your Visa card ending 5556 in minutes.`,
        );
        await expectAccessible(page);
        await session.screenshot(`owed-pending-account-${viewport.width}`);

        // A screen that still shows the whole balance as available (as one opened before the
        // pending sale came in would): the confirmation asks for more than Stripe can pay now.
        const whole = Math.round((quote.available + pending) * 100);
        const fee = Math.round(whole / 100);
        await page.route('**/api/getWithdrawalQuote', async (route) => {
          const response = await route.fetch();
          const fresh = (await response.json()) as Record<string, unknown>;
          await route.fulfill({
            response,
            json: { ...fresh, available: whole / 100, receive: (whole - fee) / 100, fee: fee / 100, pending: [] },
          });
        });
        await page.reload();
        const asked = formatMoney(whole);
        await page.getByRole('button', { name: `Withdraw ${asked}` }).click();
        const dialog = page.getByRole('dialog', { name: `Withdraw ${asked}?` });
        await dialog.getByRole('button', { name: `Withdraw ${asked}` }).click();
        const refusal = dialog.getByRole('alert');
        await refusal.waitFor();
        expect(await refusal.textContent()).toBe(
          `You can withdraw ${money(quote.available)} now, less than the ${asked} you confirmed; the rest is still pending at Stripe: ${money(pending)} becomes available on ${pendingDay}. Nothing was moved: review the new amount and confirm again.`,
        );
        await expectAccessible(page);
        await session.screenshot(`owed-pending-refused-${viewport.width}`, { fullPage: false });
        // Nothing moved.
        const stripe = portalStripe();
        expect((await stripe.payouts.list({}, { stripeAccount: member.accountId })).data).toEqual([]);
      } finally {
        await session.close();
      }
    });
  }
});

describe('what a member owes after a refund of a sale already paid out', () => {
  let member: PayoutMember;
  let quote: Quote & { owedNetted?: number };

  beforeAll(async () => {
    await fundPlatform(100_000);
    member = await payoutMember({ tag: 'owes', firstName: 'Owen', lastName: 'Debt', debitCard: true });
    const admin = await adminToken();
    // A card sale whose funds are available at once, sent and paid out, then refunded in part: a clawback.
    const orderNumber = await cardSale(member, 10, 'pm_card_bypassPending');
    const { orderId, commissionId } = await fulfil(orderNumber, admin);
    await api('addCommisionToStripe', { id: commissionId }, admin);
    await api('payCommisionToMember', { id: commissionId }, admin);
    await api('refundOrder', { id: orderId, reason: 'requested_by_customer', amountCents: 2590 }, admin);
    // Something to send: an order entered by hand, from which what is owed is netted.
    await fulfilledOrders(member, { count: 1, qty: 10 });
    quote = await api('getWithdrawalQuote', {}, member.session.access_token);
    expect(quote.owed).toBeGreaterThan(0);
  });

  for (const viewport of VIEWPORTS) {
    it(`My Account says what is owed; Payouts lists it; "Send all available" names the net amount, at ${viewport.width} px`, async () => {
      const session = await openBrowser({ viewport });
      try {
        const { page } = session;
        await logInQuickly(page, member, '/my_account');
        const owed = page.getByTestId('withdraw-owed');
        await owed.waitFor();
        // The available figure is after the debt: the withdrawal would net it all.
        expect(quote.owedNetted).toBe(quote.owed);
        expect(await owed.textContent()).toBe(
          `You owe ${money(quote.owed)} from a refunded sale; it comes off your next payouts. The available figure is after it.`,
        );
        await expectAccessible(page);
        await session.screenshot(`owed-member-${viewport.width}`);

        await page.context().clearCookies();
        await logInQuickly(page, inject('accounts').admin, '/admin/payouts');
        const debts = page.getByRole('region', { name: 'Owed from refunds' });
        const line = debts.getByRole('listitem').filter({ hasText: member.email });
        await line.waitFor();
        expect(await line.textContent()).toBe(`${member.email}owes ${money(quote.owed)}`);
        await expectAccessible(page);
        await session.screenshot(`owed-admin-payouts-${viewport.width}`);

        await page.goto(at('/admin/payouts/to_stripe'));
        const select = page.getByLabel('Member');
        const option = select.locator('option', { hasText: member.email });
        await option.waitFor({ state: 'attached' });
        // The commission sent is the available figure plus the debt netted from it.
        const net = money(quote.available);
        const gross = money(quote.available + quote.owed);
        expect(await option.textContent()).toBe(`${member.email} (${net}, after ${money(quote.owed)} owed)`);
        await select.selectOption({ label: (await option.textContent())! });
        await page.getByRole('button', { name: 'Send all available' }).click();
        const dialog = page.getByRole('dialog', { name: `Send all available: ${net}?` });
        await dialog.waitFor();
        expect(await dialog.textContent()).toContain(
          `Send ${net} to ${member.email}’s Stripe balance (${gross} in commissions, less ${money(quote.owed)} owed from refunds), one transfer per sale.`,
        );
        await expectAccessible(page);
        await session.screenshot(`owed-admin-send-confirm-${viewport.width}`, { fullPage: false });
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'hidden' });
      } finally {
        await session.close();
      }
    });
  }
});

interface StoredMail {
  to: string;
  subject: string;
  link?: { url: string; label: string };
}

function mailsTo(email: string): StoredMail[] {
  const outbox = join(inject('portalDataDir'), 'outbox');
  if (!existsSync(outbox)) return [];
  return readdirSync(outbox)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(outbox, name), 'utf8')) as StoredMail)
    .filter((mail) => mail.to === email);
}

describe('logged out', () => {
  let session: BrowserSession;
  afterAll(async () => {
    await session?.close();
  });

  it('no logged-out page logs a 401 from /api/checkAuth, and a used reset link says so when opened', async () => {
    session = await openBrowser({ viewport: PHONE_390 });
    const { page } = session;
    const unauthorized: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 401) unauthorized.push(response.url());
    });
    for (const path of ['/login', '/signup', '/forgot_password', '/verify_email?token=x', '/admin/payouts']) {
      await page.goto(at(path));
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.waitForLoadState('networkidle');
    }
    expect(unauthorized).toEqual([]);
    expect(session.problems.filter((problem) => /401|Unauthorized/.test(problem))).toEqual([]);

    // A reset link used once: opened again, the page says so before any typing.
    const email = `e2e-reset-${randomUUID().slice(0, 8)}@example.com`;
    await api('signup', { email, password: 'e2e-reset-password' });
    await api('requestPasswordReset', { email });
    let link: string | undefined;
    for (let round = 0; round < 50 && !link; round++) {
      link = mailsTo(email).find((mail) => mail.link?.label === 'Password reset link')?.link?.url;
      if (!link) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const token = new URL(link!).searchParams.get('token')!;
    await api('resetPassword', { token, password: 'a fresh e2e passphrase' });
    await page.goto(at(`/reset_password?token=${encodeURIComponent(token)}`));
    await page.getByText('This password reset link was used already. Log in, or ask for a new link.').waitFor();
    expect(await page.getByLabel('New password').count()).toBe(0);
    await expectAccessible(page);
    await session.screenshot('reset-link-used-390');
    expect(unauthorized).toEqual([]);
  });
});
