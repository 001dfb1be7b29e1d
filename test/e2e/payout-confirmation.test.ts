import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DESKTOP, PHONE_390, expectAccessible, logInQuickly, openBrowser, type BrowserSession } from './browser';
import { fulfilledOrders, fundPlatform, payoutMember, portalStripe, type PayoutMember } from './payout-member';

/**
 * A commission's own "Pay to debit card" in a real browser against the started portal and its
 * Stripe emulator, at 390 and 1280 px: the confirmation names the amount, the member and their
 * card's last four (read from Stripe as it opens) before anything moves; at 1280 the admin pays
 * and the emulator holds one payout.
 */

const VIEWPORTS = [PHONE_390, DESKTOP] as const;

describe('a commission’s payout confirmation, at 390 and 1280 px', () => {
  let member: PayoutMember;
  let stripe: Stripe;

  beforeAll(async () => {
    stripe = portalStripe();
    await fundPlatform(100_000);
    member = await payoutMember({ tag: 'pay', firstName: 'Pat', lastName: 'Payee', debitCard: true });
    // Two fulfilled orders on the member's link, their commissions sent to the member's Stripe balance.
    await fulfilledOrders(member, { count: 2, qty: 3, toStripe: true });
  });

  for (const viewport of VIEWPORTS) {
    describe(`at ${viewport.width} px`, () => {
      let session: BrowserSession;
      afterAll(async () => {
        await session?.close();
      });

      it('"Pay to debit card" confirms the amount, the member and the card’s last four before anything moves', async () => {
        session = await openBrowser({ viewport });
        const { page } = session;
        const { admin } = inject('accounts');
        await logInQuickly(page, admin, '/admin/payouts/to_be_payed');
        const row = page.locator('.row-action', { hasText: member.email }).first();
        await row.waitFor();
        await row.getByRole('button', { name: 'Pay to debit card' }).click();
        const dialog = page.getByRole('dialog', { name: /^Pay \$\d+\.\d\d to the card ending 5556\?$/ });
        await dialog.waitFor();
        const text = (await dialog.textContent()) ?? '';
        expect(text).toContain(member.email);
        expect(text).toContain('Visa ending 5556');
        expect(
          await dialog.getByRole('button', { name: 'Cancel' }).evaluate((el) => el === document.activeElement),
        ).toBe(true);
        await expectAccessible(page);
        await session.screenshot(`payout-confirmation-pay-confirm-${viewport.width}`, { fullPage: false });
        if (viewport === PHONE_390) {
          await dialog.getByRole('button', { name: 'Cancel' }).click();
          await dialog.waitFor({ state: 'hidden' });
          expect((await stripe.payouts.list({}, { stripeAccount: member.accountId })).data).toEqual([]);
          return;
        }
        await dialog.getByRole('button', { name: /^Pay \$\d/ }).click();
        await page.getByText(/^Started the payout of \$\d+\.\d\d for order .* debit card\.$/).waitFor();
        await expectAccessible(page);
        await session.screenshot(`payout-confirmation-pay-done-${viewport.width}`, { fullPage: false });
        expect((await stripe.payouts.list({}, { stripeAccount: member.accountId })).data).toHaveLength(1);
      });
    });
  }
});
