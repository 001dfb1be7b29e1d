import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sdk } from '../../infra/local/stripe/testing';
import {
  DESKTOP,
  PHONE_390,
  at,
  ensureApprovedProduct,
  expectAccessible,
  openBrowser,
  type BrowserSession,
  api,
} from './browser';

/**
 * The payout batches and the withdrawal in a real browser against the started portal and its
 * Stripe emulator, at 390 and 1280 px: the admin's "Send all available" confirmation names the
 * amount and the member, the member's "Withdraw" confirmation the amount, the instant fee and the
 * card's last four; then the member withdraws and the emulator holds one payout.
 */

const VIEWPORTS = [PHONE_390, DESKTOP] as const;

type Session = { access_token: string; userProfile: { id: string; shareCode: string | null } };

describe('payout batches and withdrawals, at 390 and 1280 px', () => {
  const email = `e2e-batch-${randomUUID().slice(0, 8)}@example.com`;
  const password = 'e2e-batch-password';
  let accountId: string;
  let stripePort: number;
  let stripeKey: string;

  beforeAll(async () => {
    // The portal's own emulator and key (its data folder): the platform's balance must hold funds.
    const dataDir = inject('portalDataDir');
    stripeKey = (JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8')) as { stripeSecretKey: string })
      .stripeSecretKey;
    stripePort = Number(
      new URL(
        (JSON.parse(readFileSync(join(dataDir, 'portal.json'), 'utf8')) as { stripeEmulator: string }).stripeEmulator,
      ).port,
    );
    const stripe = sdk(stripePort, stripeKey);
    await stripe.paymentIntents.create({
      amount: 100_000,
      currency: 'usd',
      payment_method: 'pm_card_bypassPending',
      confirm: true,
    });

    // A member with a verified payout account and a debit card that takes instant payouts.
    await api('signup', { email, password });
    const member = await api<Session>('login', { email, password });
    const created = await api<{ user: { stripeID: string } }>(
      'createPayoutAccount',
      {
        social_profile: 'https://social.example.com/e2e.batch',
        first_name: 'Bea',
        last_name: 'Batch',
        phone: '2025550123',
        street_address_1: '1 Main St',
        city: 'Springfield',
        state: 'IL',
        zipcode: '62701',
        dob_day: 1,
        dob_month: 1,
        dob_year: 1902,
        tax_id: '222222222',
        tos_accepted: true,
      },
      member.access_token,
    );
    accountId = created.user.stripeID;
    const token = await stripe.tokens.create({
      card: { number: '4000056655665556', exp_month: '12', exp_year: '2034', cvc: '123', currency: 'usd' },
    });
    await api('addPayoutMethod', { id: accountId, token: token.id }, member.access_token);

    // Two fulfilled orders on the member's link: commissions over the $10 minimum.
    await ensureApprovedProduct();
    const { admin } = inject('accounts');
    const adminToken = (await api<Session>('login', admin)).access_token;
    const { items } = await api<{ items: { id: string }[] }>('getApprovedProducts', { limit: 1 }, member.access_token);
    for (let order = 0; order < 2; order++) {
      const added = await api<{ order: { id: string } }>(
        'addOrder',
        { product_id: items[0]!.id, qty: 9, ref: member.userProfile.shareCode },
        adminToken,
      );
      for (const step of ['markAsOrdered', 'markAsShipped', 'markAsFufilled']) {
        await api(step, { id: added.order.id }, adminToken);
      }
    }
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
        await page.goto(at('/login'));
        await page.getByLabel('Email', { exact: true }).fill(admin.email);
        await page.getByLabel('Password', { exact: true }).fill(admin.password);
        await page.getByRole('button', { name: 'Log in' }).click();
        await page.getByRole('heading', { level: 1, name: 'Product List' }).waitFor();
        await page.goto(at('/admin/payouts/to_stripe'));
        await page.getByRole('heading', { level: 2, name: 'Send all available' }).waitFor();
        const select = page.getByLabel('Member');
        const option = select.locator('option', { hasText: email });
        await option.waitFor({ state: 'attached' });
        await select.selectOption({ label: (await option.textContent())! });
        await page.getByRole('button', { name: 'Send all available' }).click();
        const dialog = page.getByRole('dialog', { name: /^Send all available: \$\d/ });
        await dialog.waitFor();
        expect(await dialog.textContent()).toContain(email);
        expect(
          await dialog.getByRole('button', { name: 'Cancel' }).evaluate((el) => el === document.activeElement),
        ).toBe(true);
        await expectAccessible(page);
        await session.screenshot(`payouts-batch-confirm-${viewport.width}`, { fullPage: false });
        // Nothing moves without the confirmation: cancelled, the member's withdrawal below still has it all.
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'hidden' });
        const stripe = sdk(stripePort, stripeKey);
        expect((await stripe.transfers.list({ destination: accountId })).data).toEqual([]);
      });

      it('the member’s "Withdraw" confirms the amount, the instant fee and the card’s last four', async () => {
        await session.close();
        session = await openBrowser({ viewport });
        const { page } = session;
        await page.goto(at('/login'));
        await page.getByLabel('Email', { exact: true }).fill(email);
        await page.getByLabel('Password', { exact: true }).fill(password);
        await page.getByRole('button', { name: 'Log in' }).click();
        await page.waitForURL(at('/'));
        await page.goto(at('/my_account'));
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
        const stripe = sdk(stripePort, stripeKey);
        const payouts = (await stripe.payouts.list({}, { stripeAccount: accountId })).data;
        expect(payouts.map((payout) => payout.method)).toEqual(['instant']);
        expect((await stripe.transfers.list({ destination: accountId })).data).toHaveLength(1);
      });
    });
  }
});
