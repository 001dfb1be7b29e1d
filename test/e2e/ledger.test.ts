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
import { ensureDemoMemberPayoutAccount } from './payout-member';

/**
 * The money rules in a real browser against the started portal and its Stripe emulator: a customer
 * buys through the member's share link; the admin refunds the order from its card, after a
 * confirmation naming the refund and the seller's commission change (390 and 1280 px, axe); the
 * member sees the commission's status in words (cancelled, with the reason).
 */
describe('refunds and commission statuses', () => {
  let member: BrowserSession;
  let admin: BrowserSession;
  let orderNumber = '';

  beforeAll(async () => {
    await ensureApprovedProduct();
    member = await openBrowser({ viewport: DESKTOP });
    admin = await openBrowser({ viewport: PHONE_390 });
  });

  afterAll(async () => {
    await member?.close();
    await admin?.close();
  });

  it('a customer buys through the member’s link', async () => {
    // The member's payout account, made through the API (the payout test walks its form): their
    // commissions show on Payout Account.
    await ensureDemoMemberPayoutAccount();
    orderNumber = await buyThroughMemberLink(member, { name: 'Riley Refund', email: 'riley@example.com' });
  });

  it('the admin refunds it from its card after a confirmation naming the amounts, at 390 and 1280 px', async () => {
    const { page } = admin;
    await page.setViewportSize(DESKTOP);
    await logInQuickly(page, inject('accounts').admin, '/admin/orders');
    await page.getByText(orderNumber, { exact: true }).first().click();
    await page.setViewportSize(PHONE_390);
    const card = page.getByRole('region', { name: `Order ${orderNumber}` });
    await card.waitFor();
    expect(await card.getByTestId('order-refund-state').textContent()).toBe('Not refunded');
    await card.getByRole('button', { name: 'Refund…' }).click();
    await card.getByLabel('Reason').selectOption('requested_by_customer');
    await card.getByRole('button', { name: 'Review the refund' }).click();
    const summary = card.getByTestId('refund-summary');
    await summary.waitFor();
    // The card's last four are read from Stripe as the confirmation opens: wait for them.
    await summary.getByText(/card ending \d{4}/).waitFor();
    const text = (await summary.textContent()) ?? '';
    expect(text).toMatch(/^\$[\d,]+\.\d{2} goes back to Riley Refund’s card ending \d{4} \(all that is left of the \$/);
    expect(text).toMatch(/commission goes down by \$[\d.]+, from \$[\d.]+ to \$0\.00/);
    await expectAccessible(page);
    await admin.screenshot('refund-confirm-390');
    await page.setViewportSize(DESKTOP);
    await expectAccessible(page);
    await admin.screenshot('refund-confirm-1280');
    await card.getByRole('button', { name: /^Refund \$/ }).click();
    await page.getByText(new RegExp(`^Refunded \\$[\\d,.]+ of order ${orderNumber}\\.$`)).waitFor();
    expect(pageErrors(admin)).toEqual([]);
  });

  it('the member sees the commission cancelled with its reason, and the others’ statuses in words', async () => {
    const { page } = member;
    for (const viewport of [PHONE_390, DESKTOP]) {
      await page.setViewportSize(viewport);
      await page.goto(at('/my_account/payout_account'));
      const table = page.getByTestId('commission-table');
      await table.waitFor();
      await page.getByText(`Cancelled. Order ${orderNumber} refunded in full`).first().waitFor();
      await expectAccessible(page);
      await member.screenshot(`commission-statuses-${viewport.width}`);
    }
    expect(pageErrors(member)).toEqual([]);
  });
});
