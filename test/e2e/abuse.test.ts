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
import { ensureDemoMemberPayoutAccount } from './payout-member';

/**
 * The money rules' abuse section in a real browser against the started portal: two phone orders of
 * the member for their own address are held for review (a self-purchase, same e-mail); the admin
 * sees why in Payouts → Held for review, releases one and cancels the other, each after a
 * confirmation naming the amount, the member and the order (390 and 1280 px, axe).
 */

interface Held {
  orderID: string;
  amount: string;
}

describe('commissions held for review', () => {
  let admin: BrowserSession;
  const held: Held[] = [];
  const memberEmail = inject('accounts').member.email;

  beforeAll(async () => {
    await ensureApprovedProduct();
    const login = (account: { email: string; password: string }) =>
      api<{ access_token: string; userProfile: { shareCode: string } }>('login', account);
    const member = await login(inject('accounts').member);
    const adminToken = (await login(inject('accounts').admin)).access_token;
    const products = await api<{ items: { id: string }[] }>('getApprovedProducts', { limit: 1 }, member.access_token);
    for (let sale = 0; sale < 2; sale++) {
      const recorded = await api<{ order: { orderID: string }; commission: { amount: number; status: string } }>(
        'addOrder',
        {
          product_id: products.items[0]!.id,
          qty: 1,
          ref: member.userProfile.shareCode,
          customer: {
            name: 'Member Themselves',
            email: memberEmail.toUpperCase(),
            address: { line1: '1 Main St', city: 'Springfield', state: 'IL', postal_code: '62701' },
          },
        },
        adminToken,
      );
      expect(recorded.commission.status).toBe('review');
      held.push({ orderID: recorded.order.orderID, amount: `$${recorded.commission.amount.toFixed(2)}` });
    }
    admin = await openBrowser({ viewport: DESKTOP });
    await logInQuickly(admin.page, inject('accounts').admin);
  });

  afterAll(async () => {
    await admin?.close();
  });

  it('shows why each is held, and releases one after a confirmation naming the amount and the member (1280 px)', async () => {
    const { page } = admin;
    await page.goto(at('/admin/payouts'));
    await page.getByRole('link', { name: 'Held for review' }).click();
    await page.getByRole('heading', { level: 1, name: 'Held for review' }).waitFor();
    const [first] = held;
    await page.getByText(`${first!.orderID} · ${memberEmail}`).first().waitFor({ state: 'attached' });
    await page.getByText('Held for review: Bought through own link (same e-mail).').first().waitFor();
    await expectAccessible(page);
    await admin.screenshot('held-list-1280');

    await page
      .getByRole('button', { name: `Release ${first!.amount} of ${memberEmail} (order ${first!.orderID})…` })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Release this commission?' });
    await dialog.waitFor();
    const text = (await dialog.textContent()) ?? '';
    expect(text).toContain(first!.amount);
    expect(text).toContain(memberEmail);
    expect(text).toContain(first!.orderID);
    await expectAccessible(page);
    await admin.screenshot('held-release-confirm-1280');
    // Both decisions stay in view in the grid the table becomes once the pointer is on it.
    await expect
      .poll(() =>
        page
          .getByRole('button', { name: /^Cancel commission \$/ })
          .first()
          .isVisible(),
      )
      .toBe(true);
    await dialog.getByRole('button', { name: 'Release the commission' }).click();
    await page
      .getByText(`Released the ${first!.amount} commission of ${memberEmail} on order ${first!.orderID}.`)
      .waitFor();
    await expect.poll(() => page.getByText(`${first!.orderID} · ${memberEmail}`).count()).toBe(0);
    expect(pageErrors(admin)).toEqual([]);
  });

  it('cancels the other after a confirmation, on a phone (390 px)', async () => {
    const { page } = admin;
    await page.setViewportSize(PHONE_390);
    await page.goto(at('/admin/payouts/held'));
    const second = held[1]!;
    const open = page.getByRole('button', {
      name: `Cancel commission ${second.amount} of ${memberEmail} (order ${second.orderID})…`,
    });
    await open.waitFor();
    await expectAccessible(page);
    await admin.screenshot('held-list-390');
    await open.click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this commission?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(`${memberEmail} earns nothing on order ${second.orderID}`);
    expect(await dialog.textContent()).toContain(second.amount);
    await expectAccessible(page);
    await admin.screenshot('held-cancel-confirm-390');
    await dialog.getByRole('button', { name: 'Cancel the commission' }).click();
    await page
      .getByText(`Cancelled the ${second.amount} commission of ${memberEmail} on order ${second.orderID}.`)
      .waitFor();
    await expectAccessible(page);
    await admin.screenshot('held-after-cancel-390');
    expect(pageErrors(admin)).toEqual([]);
  });

  it('the member sees the released one back on its way and the cancelled one with why, at 390 and 1280 px', async () => {
    // The member's commissions show on Payout Account once they have one (made through the API here).
    await ensureDemoMemberPayoutAccount();
    const member = await openBrowser({ viewport: PHONE_390 });
    try {
      await logInQuickly(member.page, inject('accounts').member);
      for (const viewport of [PHONE_390, DESKTOP]) {
        await member.page.setViewportSize(viewport);
        await member.page.goto(at('/my_account/payout_account'));
        await member.page.getByTestId('commission-table').waitFor();
        await member.page
          .getByText('Cancelled. Cancelled after review: bought through own link (same e-mail)')
          .first()
          .waitFor();
        await member.page
          .getByText('Waiting for fulfilment. Released after review: bought through own link (same e-mail)')
          .first()
          .waitFor();
        await expectAccessible(member.page);
        await member.screenshot(`held-member-${viewport.width}`);
      }
      expect(pageErrors(member)).toEqual([]);
    } finally {
      await member.close();
    }
  });
});
