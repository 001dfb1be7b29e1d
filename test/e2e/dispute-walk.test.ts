import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  api,
  at,
  DESKTOP,
  ensureApprovedProduct,
  expectAccessible,
  logInQuickly,
  openBrowser,
  pageErrors,
  PHONE_390,
  type BrowserSession,
} from './browser';
import { mailsTo, waitForMail } from './outbox';
import { payOnSharePage } from './shop';
import { payoutMember, portalStripe, type PayoutMember } from './payout-member';

/**
 * A dispute walked from the customer's payment to the last mail (issue 34), in a real browser at
 * 390 and 1280 px with axe on each screen, against the started portal and its Stripe emulator:
 * - the customer pays on a member's share link with Stripe's dispute test card (4000 0000 0000 0259):
 *   the payment succeeds, then the bank disputes it;
 * - each admin gets one "dispute" mail that names the order and links to it; the link opens its card,
 *   which says the dispute is open, why, that Stripe holds the money and where to answer; the
 *   "Not ordered yet" list flags it;
 * - the member sees the sale's commission held for review because of the dispute;
 * - the dispute is lost (answered with Stripe's losing evidence): the order leaves the work list and
 *   its card says the bank took the payment back; the customer gets one mail and the order page says
 *   the bank returned the payment, and when; the member's commission is cancelled, in words.
 */
const VIEWPORTS = [PHONE_390, DESKTOP] as const;

describe('a dispute, from the customer’s payment to the last mail', () => {
  let member: PayoutMember;
  let memberSession: BrowserSession;
  let admin: BrowserSession;
  let customer: BrowserSession;
  let orderNumber = '';
  let productId = '';
  let disputeId = '';
  const email = `e2e-dispute-${randomUUID().slice(0, 8)}@example.com`;
  const adminEmail = () => inject('accounts').admin.email;

  beforeAll(async () => {
    await ensureApprovedProduct();
    member = await payoutMember({ tag: 'dispute', firstName: 'Dana', lastName: 'Spute' });
    const { items } = await api<{ items: { id: string }[] }>(
      'getApprovedProducts',
      { limit: 1 },
      member.session.access_token,
    );
    productId = items[0]!.id;
    customer = await openBrowser({ viewport: PHONE_390 });
    admin = await openBrowser({ viewport: PHONE_390 });
    memberSession = await openBrowser({ viewport: PHONE_390 });
  });

  afterAll(async () => {
    await customer?.close();
    await admin?.close();
    await memberSession?.close();
  });

  it('the customer pays on the member’s link with the dispute test card; the thank-you shows the order', async () => {
    const { page } = customer;
    await page.goto(at(`/shop/${productId}?ref=${member.session.userProfile.shareCode ?? ''}`));
    orderNumber = await payOnSharePage(page, { name: 'Casey Chargeback', email }, '4000000000000259');
    expect(pageErrors(customer)).toEqual([]);
  });

  it('each admin gets one dispute mail naming the order; its link opens the card, which says the dispute is open and what to do', async () => {
    const mail = await waitForMail(adminEmail(), new RegExp(orderNumber));
    expect(mail.subject).toContain(orderNumber);
    expect(mail.text).toMatch(/dispute/i);
    expect(mail.text).toContain(`for order ${orderNumber}: the card holder says they did not make the payment.`);
    expect(mail.text).toMatch(/answer it in Stripe's dashboard with your evidence by [A-Z][a-z]+ \d{1,2}, \d{4}\./);
    expect(mail.link?.url).toContain(orderNumber);
    // One mail for this order's dispute, however many times the event came.
    expect(mailsTo(adminEmail()).filter((each) => each.subject.includes(orderNumber))).toHaveLength(1);

    const { page } = admin;
    await logInQuickly(page, inject('accounts').admin);
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      const url = new URL(mail.link!.url);
      await page.goto(at(url.pathname + url.search + url.hash));
      const card = page.getByRole('region', { name: `Order ${orderNumber}` });
      await card.waitFor();
      const note = card.getByTestId('order-dispute');
      await note.waitFor();
      expect(await note.textContent()).toMatch(
        /^Dispute open since .+: the customer’s bank disputes \$[\d.,]+ \(the card holder says they did not make the payment\)\. Stripe holds the money until the dispute is decided; answer it in Stripe’s dashboard\./,
      );
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await expectAccessible(page);
      await admin.screenshot(`dispute-walk-card-open-${viewport.width}`);
    }
    // The work list flags it where the admin would buy stock for it.
    await page.goto(at('/admin/orders/not_ordered_yet'));
    await page.getByRole('heading', { level: 1, name: 'Not ordered yet' }).waitFor();
    await page.getByText(orderNumber, { exact: true }).first().waitFor();
    expect(await page.getByText(/Dispute open/).count()).toBeGreaterThan(0);
    await expectAccessible(page);
    expect(pageErrors(admin)).toEqual([]);
  });

  it('the member sees the sale’s commission held for review because of the dispute, at 390 and 1280 px', async () => {
    const { page } = memberSession;
    await logInQuickly(page, member);
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.goto(at('/my_account/payout_account'));
      const line = page.getByText(new RegExp(`^Held for review\\W.*Dispute opened on order ${orderNumber}`));
      await line.first().waitFor();
      expect(await line.first().textContent()).toMatch(/dispute/i);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await expectAccessible(page);
      await memberSession.screenshot(`dispute-walk-member-held-${viewport.width}`);
    }
  });

  it('the dispute is lost: the order leaves the work list and its card says the bank took the payment back', async () => {
    const stripe = portalStripe();
    const disputes = await stripe.disputes.list({ limit: 100 });
    const intents = await Promise.all(
      disputes.data.map(async (dispute) => ({
        dispute,
        intent: await stripe.paymentIntents.retrieve(String(dispute.payment_intent)),
      })),
    );
    disputeId = intents.find(({ intent }) => intent.receipt_email === email)!.dispute.id;
    await stripe.disputes.update(disputeId, { evidence: { uncategorized_text: 'losing_evidence' } });
    await expect.poll(async () => (await stripe.disputes.retrieve(disputeId)).status, { timeout: 20_000 }).toBe('lost');

    const { page } = admin;
    await page.setViewportSize(DESKTOP);
    // The portal learns of the loss from Stripe's webhook: its card says so once it has (each look a fresh load).
    await expect
      .poll(
        async () => {
          await page.goto(at(`/admin/orders?order=${orderNumber}`));
          const card = page.getByRole('region', { name: `Order ${orderNumber}` });
          await card.waitFor();
          await page.waitForLoadState('networkidle');
          return card.getByTestId('order-closed').count();
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe(1);
    // Then the work list, loaded after it, no longer holds the order.
    await page.goto(at('/admin/orders/not_ordered_yet'));
    await page.getByRole('heading', { level: 1, name: 'Not ordered yet' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByText(orderNumber, { exact: true }).count()).toBe(0);
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.goto(at(`/admin/orders?order=${orderNumber}`));
      const card = page.getByRole('region', { name: `Order ${orderNumber}` });
      await card.waitFor();
      await card
        .getByTestId('order-closed')
        .getByText(/^The customer’s bank took the payment back \(a dispute lost, .+\): nothing is left to send/)
        .waitFor();
      expect(await card.getByTestId('order-dispute').count()).toBe(0);
      expect(await card.getByRole('button', { name: /^Mark as/ }).count()).toBe(0);
      await expectAccessible(page);
      await admin.screenshot(`dispute-walk-card-lost-${viewport.width}`);
    }
    expect(pageErrors(admin)).toEqual([]);
  });

  it('the customer gets one mail, whose link shows the order closed with the bank’s return and its day, at 390 and 1280 px', async () => {
    const mail = await waitForMail(email, new RegExp(`${orderNumber}.*(refund|returned)`, 'i'));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(mailsTo(email).filter((each) => each.subject === mail.subject)).toHaveLength(1);
    const { page } = customer;
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      const url = new URL(mail.link!.url);
      await page.goto(at(url.pathname + url.hash));
      await page.getByRole('heading', { level: 1, name: `Order ${orderNumber}` }).waitFor();
      expect(await page.getByTestId('order-status').textContent()).toBe(
        'Closed: your bank returned your payment after a dispute. This order will not be sent.',
      );
      await page
        .getByTestId('order-refunds')
        .getByText(/returned to you by your bank \(a dispute\) on /)
        .waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await expectAccessible(page);
      await customer.screenshot(`dispute-walk-order-page-${viewport.width}`);
    }
    expect(pageErrors(customer)).toEqual([]);
  });

  it('the member’s commission is cancelled, in words that name the order and the dispute, at 390 and 1280 px, and one mail says so', async () => {
    const told = await waitForMail(member.email, new RegExp(`^A sale you made was disputed: order ${orderNumber}$`));
    expect(told.text).toContain(`The customer's bank took back $`);
    expect(told.text).toMatch(
      /Your commission of \$[\d.]+ for it is cancelled\. It had not been paid to you, so nothing is taken from you\./,
    );
    expect(mailsTo(member.email).filter((mail) => mail.subject === told.subject)).toHaveLength(1);
    const { page } = memberSession;
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.goto(at('/my_account/payout_account'));
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      const line = page.getByText(new RegExp(`${orderNumber}`)).filter({ hasText: /dispute/i });
      await line.first().waitFor();
      expect(await line.first().textContent()).not.toMatch(/^Held for review/);
      await expectAccessible(page);
      await memberSession.screenshot(`dispute-walk-member-lost-${viewport.width}`);
    }
    expect(pageErrors(memberSession)).toEqual([]);
  });
});
