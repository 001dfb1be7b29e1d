import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  at,
  DESKTOP,
  expectAccessible,
  ensureApprovedProduct,
  logInQuickly,
  openBrowser,
  pageErrors,
  PHONE_390,
  type BrowserSession,
} from './browser';
import { buyThroughMemberLink } from './shop';
import { mailsTo } from './outbox';

/**
 * A refund walked from the admin's first click to the customer's mail (issue 34), in a real
 * browser at 390 and 1280 px with axe on each screen: a customer buys through the member's link;
 * the admin opens the order in Not ordered yet, refunds it in full after a confirmation that names
 * the one commission effect; the order leaves the list and its count, its card (opened from the
 * All orders link) offers no step; the customer's "your order is refunded" mail is in the outbox,
 * once, and its link opens an order page saying the order is refunded and closed.
 */
const VIEWPORTS = [PHONE_390, DESKTOP] as const;

describe('a refund, from the first click to the customer’s mail', () => {
  let member: BrowserSession;
  let admin: BrowserSession;
  let customerSession: BrowserSession;
  let orderNumber = '';
  const email = `e2e-refund-${randomUUID().slice(0, 8)}@example.com`;

  beforeAll(async () => {
    await ensureApprovedProduct();
    member = await openBrowser({ viewport: DESKTOP });
    admin = await openBrowser({ viewport: PHONE_390 });
    customerSession = await openBrowser({ viewport: PHONE_390 });
  });

  afterAll(async () => {
    await member?.close();
    await admin?.close();
    await customerSession?.close();
  });

  it('a customer buys through the member’s link', async () => {
    orderNumber = await buyThroughMemberLink(member, { name: 'Robin Return', email: email });
  });

  it('the admin refunds it in full from Not ordered yet; it leaves the list and its count', async () => {
    const { page } = admin;
    await logInQuickly(page, inject('accounts').admin, '/admin/orders/not_ordered_yet');
    await page.getByRole('heading', { level: 1, name: 'Not ordered yet' }).waitFor();
    const lead = page.locator('main p').first();
    await page.getByRole('button', { name: `Open order ${orderNumber}` }).waitFor();
    const countBefore = Number(/(\d+) orders?\./.exec((await lead.textContent()) ?? '')?.[1]);
    await page.getByRole('button', { name: `Open order ${orderNumber}` }).click();
    const card = page.getByRole('region', { name: `Order ${orderNumber}` });
    await card.waitFor();
    await card.getByRole('button', { name: 'Mark as Ordered' }).waitFor();
    await card.getByRole('button', { name: 'Refund…' }).click();
    await card.getByLabel('Reason').selectOption('requested_by_customer');
    await card.getByRole('button', { name: 'Review the refund' }).click();
    const summary = card.getByTestId('refund-summary');
    await summary.getByText(/card ending \d{4}/).waitFor();
    await summary.getByText(/not sent to Stripe yet, so it is cancelled\.$/).waitFor();
    // One effect, the one that applies: nothing about reversals or clawbacks.
    expect(await summary.textContent()).not.toMatch(/reversed|clawed back/);
    await expectAccessible(page);
    await admin.screenshot('refund-walk-confirm-390');
    await page.setViewportSize(DESKTOP);
    await expectAccessible(page);
    await admin.screenshot('refund-walk-confirm-1280');
    await card.getByRole('button', { name: /^Refund \$/ }).click();
    const done = page.getByText(new RegExp(`^Refunded \\$[\\d,.]+ of order ${orderNumber}\\.$`));
    await done.waitFor();
    // Said once.
    expect(await done.count()).toBe(1);
    await expect.poll(async () => page.getByText(orderNumber, { exact: true }).count(), { timeout: 15_000 }).toBe(0);
    await expect
      .poll(async () => Number(/(\d+) orders?\./.exec((await lead.textContent()) ?? '')?.[1] ?? 0), {
        timeout: 15_000,
      })
      .toBe(countBefore - 1);
    await expectAccessible(page);
    await admin.screenshot('refund-walk-list-1280');
    expect(pageErrors(admin)).toEqual([]);
  });

  it('its card, opened by its link in All orders, says it is refunded in full and offers no step, at 390 and 1280 px', async () => {
    const { page } = admin;
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.goto(at(`/admin/orders?order=${orderNumber}`));
      const card = page.getByRole('region', { name: `Order ${orderNumber}` });
      await card.waitFor();
      await card
        .getByTestId('order-closed')
        .getByText(/nothing is left to send/)
        .waitFor();
      expect(await card.getByRole('button', { name: /^Mark as/ }).count()).toBe(0);
      // Nothing cut off: the page is no wider than the window.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await expectAccessible(page);
      await admin.screenshot(`refund-walk-card-${viewport.width}`);
    }
    expect(pageErrors(admin)).toEqual([]);
  });

  it('at 1280 px the Payouts and Orders tables show every column without scrolling sideways', async () => {
    const { page } = admin;
    await page.setViewportSize(DESKTOP);
    for (const [path, name, last] of [
      ['/admin/payouts', 'payouts', 'state'],
      ['/admin/orders', 'orders', 'stage'],
    ] as const) {
      await page.goto(at(path));
      const table = page.locator('.data-table').last();
      await table.waitFor();
      // The plain first page: no table wider than its frame.
      const plain = await page.evaluate(() =>
        [...document.querySelectorAll('table')].map(
          (each) => each.scrollWidth - (each.parentElement?.clientWidth ?? 0),
        ),
      );
      expect(plain.every((extra) => extra <= 1)).toBe(true);
      // Then the grid once the pointer comes: every header, the last (Status) too, inside the grid.
      await table.hover();
      await page.locator(`.ag-header-cell[col-id="${last}"]`).waitFor();
      const grid = await page.evaluate(() => {
        const edge = document.querySelector('.ag-root-wrapper')!.getBoundingClientRect().right;
        return [...document.querySelectorAll('.ag-header-cell')].map(
          (cell) => cell.getBoundingClientRect().right - edge,
        );
      });
      expect(grid.length).toBeGreaterThan(4);
      expect(grid.every((extra) => extra <= 1)).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(DESKTOP.width);
      await expectAccessible(page);
      await admin.screenshot(`refund-walk-${name}-table-1280`);
    }
  });

  it('the customer gets one "refunded" mail, whose link shows the order refunded and closed, at 390 and 1280 px', async () => {
    await expect
      .poll(() => mailsTo(email).filter((mail) => mail.subject.includes('refunded')).length, { timeout: 15_000 })
      .toBe(1);
    const mail = mailsTo(email).find((each) => each.subject === `Your order ${orderNumber} is refunded`)!;
    expect(mail.text).toMatch(/We refunded \$[\d.]+ of your payment for order/);
    expect(mail.text).toContain('we will not send it');
    const { page } = customerSession;
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      const url = new URL(mail.link!.url);
      await page.goto(at(url.pathname + url.hash));
      await page.getByRole('heading', { level: 1, name: `Order ${orderNumber}` }).waitFor();
      expect(await page.getByTestId('order-status').textContent()).toBe(
        'Refunded in full: this order is closed and will not be sent.',
      );
      await page
        .getByTestId('order-refunds')
        .getByText(/Your whole payment was refunded to your card on /)
        .waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await expectAccessible(page);
      await customerSession.screenshot(`refund-walk-order-page-${viewport.width}`);
    }
    expect(pageErrors(customerSession)).toEqual([]);
  });
});
