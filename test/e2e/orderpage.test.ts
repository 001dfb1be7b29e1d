import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  at,
  DESKTOP,
  ensureApprovedProduct,
  expectAccessible,
  logInQuickly,
  openBrowser,
  pageErrors,
  PHONE_390,
  type BrowserSession,
  api,
} from './browser';
import { mailsTo } from './outbox';

/**
 * The customer's order page and the admin's shipped form (issue 28), in a real browser at 390 and
 * 1280 px, each screen checked by axe: the admin marks an order shipped with a carrier and a
 * tracking number (a wrong number is refused at its field), the customer's shipping mail carries
 * the order page's link, and the page shows the steps with their dates and the carrier's tracking
 * link; an unknown link says so. My Account's E-mails turn the sale mail off.
 */
const VIEWPORTS = [PHONE_390, DESKTOP] as const;
const accounts = inject('accounts');

/** An order ready to ship (recorded by an admin, marked ordered), per viewport: its number and customer. */
const orders = new Map<number, { orderNumber: string; email: string }>();

beforeAll(async () => {
  await ensureApprovedProduct();
  type Session = { access_token: string; userProfile: { shareCode: string } };
  const member = await api<Session>('login', accounts.member);
  const admin = await api<Session>('login', accounts.admin);
  const { items } = await api<{ items: { id: string }[] }>('getApprovedProducts', { limit: 1 }, member.access_token);
  for (const viewport of VIEWPORTS) {
    const email = `e2e-track-${randomUUID().slice(0, 8)}@example.com`;
    const { order } = await api<{ order: { id: string; orderID: string } }>(
      'addOrder',
      {
        product_id: items[0]!.id,
        qty: 1,
        ref: member.userProfile.shareCode,
        customer: {
          name: 'Tracy Parcel',
          email,
          address: { line1: '1 Main St', city: 'Springfield', state: 'IL', postal_code: '62701' },
        },
      },
      admin.access_token,
    );
    await api('markAsOrdered', { id: order.id }, admin.access_token);
    orders.set(viewport.width, { orderNumber: order.orderID, email });
  }
});

describe('the order page, at 390 and 1280 px', () => {
  let admin: BrowserSession;
  let customer: BrowserSession;

  beforeAll(async () => {
    admin = await openBrowser({ viewport: PHONE_390 });
    customer = await openBrowser({ viewport: PHONE_390 });
  });

  afterAll(async () => {
    await admin?.close();
    await customer?.close();
  });

  it('the admin marks an order shipped with its carrier and tracking number; a wrong number is refused at its field', async () => {
    const { page } = admin;
    await logInQuickly(page, accounts.admin);
    for (const viewport of VIEWPORTS) {
      const { orderNumber, email } = orders.get(viewport.width)!;
      await page.setViewportSize(viewport);
      await page.goto(at('/admin/orders/not_shipped_yet'));
      await page.getByRole('heading', { level: 1, name: 'Not shipped yet' }).waitFor();
      // A phone shows each order as a card with its Open button; a desktop opens the row clicked.
      if (viewport.width < 640) await page.getByRole('button', { name: `Open order ${orderNumber}` }).click();
      else await page.getByText(orderNumber, { exact: true }).first().click();
      await page.getByRole('heading', { level: 2, name: `Order ${orderNumber}` }).waitFor();

      await page.getByLabel('Carrier', { exact: true }).selectOption('ups');
      const number = page.getByLabel('Tracking number');
      await number.fill('12345');
      await page.getByRole('button', { name: 'Review shipping…' }).click();
      await expect.poll(() => number.getAttribute('aria-invalid')).toBe('true');
      await page.getByText('This is not a UPS tracking number').waitFor();
      await expectAccessible(page);
      await number.scrollIntoViewIfNeeded();
      await admin.screenshot(`orderpage-shipped-form-refused-${viewport.width}`, { fullPage: false });

      await number.fill('1Z 999 AA1 0123 456 784');
      await page.getByRole('button', { name: 'Review shipping…' }).click();
      // Confirmed first, saying what the customer is told.
      await page
        .getByText('The customer is mailed that it has shipped with UPS, tracking number 1Z 999 AA1 0123 456 784.')
        .waitFor();
      await expectAccessible(page);
      await admin.screenshot(`orderpage-shipped-confirm-${viewport.width}`, { fullPage: false });
      await page.getByRole('button', { name: 'Mark as Shipped' }).click();
      await page.getByText(`Order ${orderNumber} marked as shipped.`).waitFor();
      await expect.poll(() => mailsTo(email).filter((mail) => mail.subject.endsWith('has shipped')).length).toBe(1);
      await expectAccessible(page);
      await admin.screenshot(`orderpage-shipped-done-${viewport.width}`);
    }
    expect(pageErrors(admin)).toEqual([]);
  });

  it('the customer follows the shipping mail’s link to the steps with their dates and the carrier’s tracking page', async () => {
    const { page } = customer;
    for (const viewport of VIEWPORTS) {
      const { orderNumber, email } = orders.get(viewport.width)!;
      const mail = mailsTo(email).find((each) => each.subject.endsWith('has shipped'))!;
      expect(mail.link!.url).toMatch(/\/track_order#[A-Za-z0-9_-]{43}$/);
      await page.setViewportSize(viewport);
      await page.goto(at(new URL(mail.link!.url).pathname + new URL(mail.link!.url).hash));
      await page.getByRole('heading', { level: 1, name: `Order ${orderNumber}` }).waitFor();
      expect(await page.getByTestId('order-status').textContent()).toBe('Shipped');
      const steps = await page.getByTestId('order-steps').getByRole('listitem').allTextContents();
      expect(steps).toHaveLength(4);
      expect(steps[1]).toMatch(/^Ordered from the supplier \(done\)\w+ \d+\w\w, \d{4} \d+:\d\d [AP]M$/);
      expect(steps[2]).toMatch(/^Shipped \(done\)/);
      expect(steps[3]).toBe('Not delivered yet (waiting)');
      expect(await page.getByTestId('carrier').textContent()).toBe('UPS');
      expect(await page.getByTestId('tracking-number').textContent()).toBe('1Z999AA10123456784');
      const track = page.getByRole('link', { name: /Track the parcel at UPS/ });
      expect(await track.getAttribute('href')).toBe('https://www.ups.com/track?tracknum=1Z999AA10123456784');
      // Nothing is cut off: the page is no wider than the window.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await expectAccessible(page);
      await customer.screenshot(`orderpage-customer-${viewport.width}`);
    }

    await page.goto(at(`/track_order#${randomBytes(32).toString('base64url')}`));
    await page.getByText('This order link is not valid.').waitFor();
    await expectAccessible(page);
    await customer.screenshot('orderpage-unknown-link-1280');
    expect(pageErrors(customer)).toEqual([]);
  });
});

describe('My Account’s e-mail choices, at 390 and 1280 px', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openBrowser({ viewport: PHONE_390 });
  });

  afterAll(async () => {
    await session?.close();
  });

  it('turns the sale mail off and on again, saying when it is saved', async () => {
    const { page } = session;
    await logInQuickly(page, accounts.member);
    for (const [index, viewport] of VIEWPORTS.entries()) {
      await page.setViewportSize(viewport);
      await page.goto(at('/my_account'));
      await page.getByRole('heading', { level: 2, name: 'E-mails' }).waitFor();
      const sale = page.getByLabel('When I make a sale');
      // The first pass turns it off, the second on again.
      expect(await sale.isChecked()).toBe(index === 0);
      await sale.setChecked(index !== 0);
      await page.getByRole('button', { name: 'Save e-mail choices' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      await expectAccessible(page);
      await session.screenshot(`orderpage-mail-choices-${viewport.width}`);
    }
    const { userProfile } = await api<{ userProfile: { mailPreferences: unknown } }>('login', accounts.member);
    expect(userProfile.mailPreferences).toEqual({ saleMails: true, payoutMails: true });
    expect(pageErrors(session)).toEqual([]);
  });
});
