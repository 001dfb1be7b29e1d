import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DESKTOP, PHONE_390, expectAccessible, logInQuickly, openBrowser, type BrowserSession } from './browser';
import { fulfilledOrders, fundPlatform, payoutMember, portalStripe, type PayoutMember } from './payout-member';

/**
 * The payout batches and the withdrawal in a real browser against the started portal and its
 * Stripe emulator, at 390 and 1280 px: the admin's "Send all available" confirmation names the
 * amount and the member, the member's "Withdraw" confirmation the amount, the instant fee and the
 * card's last four; then the member withdraws and the emulator holds one payout.
 */

const VIEWPORTS = [PHONE_390, DESKTOP] as const;

describe('payout batches and withdrawals, at 390 and 1280 px', () => {
  let member: PayoutMember;
  let stripe: Stripe;

  beforeAll(async () => {
    // The portal's own emulator and key: the platform's balance must hold funds.
    stripe = portalStripe();
    await fundPlatform(100_000);
    // A member with a verified payout account and a debit card that takes instant payouts.
    member = await payoutMember({ tag: 'batch', firstName: 'Bea', lastName: 'Batch', debitCard: true });
    // Two fulfilled orders on the member's link: commissions over the $10 minimum.
    await fulfilledOrders(member, { count: 2, qty: 9 });
  });

  for (const viewport of VIEWPORTS) {
    describe(`at ${viewport.width} px`, () => {
      // One browser per person: the admin's session, then the member's.
      let session: BrowserSession;
      afterAll(async () => {
        await session?.close();
      });

      it('the admin’s "Send all available" confirms the amount and the member before anything moves', async () => {
        session = await openBrowser({ viewport });
        const { page } = session;
        const { admin } = inject('accounts');
        await logInQuickly(page, admin, '/admin/payouts/to_stripe');
        await page.getByRole('heading', { level: 2, name: 'Send all available' }).waitFor();
        const select = page.getByLabel('Member');
        const option = select.locator('option', { hasText: member.email });
        await option.waitFor({ state: 'attached' });
        await select.selectOption({ label: (await option.textContent())! });
        await page.getByRole('button', { name: 'Send all available' }).click();
        const dialog = page.getByRole('dialog', { name: /^Send all available: \$\d/ });
        await dialog.waitFor();
        expect(await dialog.textContent()).toContain(member.email);
        expect(
          await dialog.getByRole('button', { name: 'Cancel' }).evaluate((el) => el === document.activeElement),
        ).toBe(true);
        await expectAccessible(page);
        await session.screenshot(`payouts-batch-confirm-${viewport.width}`, { fullPage: false });
        // Nothing moves without the confirmation: cancelled, the member's withdrawal below still has it all.
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'hidden' });
        expect((await stripe.transfers.list({ destination: member.accountId })).data).toEqual([]);
      });

      it('the member’s "Withdraw" confirms the amount, the instant fee and the card’s last four', async () => {
        await session.close();
        session = await openBrowser({ viewport });
        const { page } = session;
        await logInQuickly(page, member, '/my_account');
        const withdraw = page.getByRole('button', { name: /^Withdraw \$\d/ });
        await withdraw.waitFor();
        await withdraw.click();
        const dialog = page.getByRole('dialog', { name: /^Withdraw \$\d/ });
        await dialog.waitFor();
        const text = (await dialog.textContent()) ?? '';
        expect(text).toContain('card ending 5556');
        expect(text).toMatch(/Stripe instant fee \(you pay\)\$0\.\d\d/);
        await expectAccessible(page);
        await session.screenshot(`payouts-withdraw-confirm-${viewport.width}`, { fullPage: false });
        if (viewport === PHONE_390) {
          await dialog.getByRole('button', { name: 'Cancel' }).click();
          await dialog.waitFor({ state: 'hidden' });
          return;
        }
        // At 1280: withdraw for real; the emulator holds one instant payout.
        await dialog.getByRole('button', { name: /^Withdraw \$\d/ }).click();
        await page
          .getByRole('status')
          .filter({ hasText: /^Withdrew \$/ })
          .waitFor();
        await expectAccessible(page);
        await session.screenshot(`payouts-withdraw-done-${viewport.width}`);
        const payouts = (await stripe.payouts.list({}, { stripeAccount: member.accountId })).data;
        expect(payouts.map((payout) => payout.method)).toEqual(['instant']);
        expect((await stripe.transfers.list({ destination: member.accountId })).data).toHaveLength(1);
      });
    });
  }
});
