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
 * A commission's own "Pay to debit card" in a real browser against the started portal and its
 * Stripe emulator, at 390 and 1280 px: the confirmation names the amount, the member and their
 * card's last four (read from Stripe as it opens) before anything moves; at 1280 the admin pays
 * and the emulator holds one payout.
 */

const VIEWPORTS = [PHONE_390, DESKTOP] as const;

type Session = { access_token: string; userProfile: { id: string; shareCode: string | null } };

describe('a commission’s payout confirmation, at 390 and 1280 px', () => {
  const email = `e2e-pay-${randomUUID().slice(0, 8)}@example.com`;
  const password = 'e2e-pay-one-password';
  let accountId: string;
  let stripePort: number;
  let stripeKey: string;

  beforeAll(async () => {
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
    await api('signup', { email, password });
    const member = await api<Session>('login', { email, password });
    const created = await api<{ user: { stripeID: string } }>(
      'createPayoutAccount',
      {
        social_profile: 'https://social.example.com/e2e.pay',
        first_name: 'Pat',
        last_name: 'Payee',
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

    // Two fulfilled orders on the member's link, their commissions sent to the member's Stripe balance.
    await ensureApprovedProduct();
    const { admin } = inject('accounts');
    const adminToken = (await api<Session>('login', admin)).access_token;
    const { items } = await api<{ items: { id: string }[] }>('getApprovedProducts', { limit: 1 }, member.access_token);
    for (let order = 0; order < 2; order++) {
      const added = await api<{ order: { id: string }; commission: { id: string } }>(
        'addOrder',
        { product_id: items[0]!.id, qty: 3, ref: member.userProfile.shareCode },
        adminToken,
      );
      for (const step of ['markAsOrdered', 'markAsShipped', 'markAsFufilled']) {
        await api(step, { id: added.order.id }, adminToken);
      }
      await api('addCommisionToStripe', { id: added.commission.id }, adminToken);
    }
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
        await page.goto(at('/login'));
        await page.getByLabel('Email', { exact: true }).fill(admin.email);
        await page.getByLabel('Password', { exact: true }).fill(admin.password);
        await page.getByRole('button', { name: 'Log in' }).click();
        await page.getByRole('heading', { level: 1, name: 'Product List' }).waitFor();
        await page.goto(at('/admin/payouts/to_be_payed'));
        const row = page.locator('.row-action', { hasText: email }).first();
        await row.waitFor();
        await row.getByRole('button', { name: 'Pay to debit card' }).click();
        const dialog = page.getByRole('dialog', { name: /^Pay \$\d+\.\d\d to the card ending 5556\?$/ });
        await dialog.waitFor();
        const text = (await dialog.textContent()) ?? '';
        expect(text).toContain(email);
        expect(text).toContain('Visa ending 5556');
        expect(
          await dialog.getByRole('button', { name: 'Cancel' }).evaluate((el) => el === document.activeElement),
        ).toBe(true);
        await expectAccessible(page);
        await session.screenshot(`ledger2-pay-confirm-${viewport.width}`, { fullPage: false });
        const stripe = sdk(stripePort, stripeKey);
        if (viewport === PHONE_390) {
          await dialog.getByRole('button', { name: 'Cancel' }).click();
          await dialog.waitFor({ state: 'hidden' });
          expect((await stripe.payouts.list({}, { stripeAccount: accountId })).data).toEqual([]);
          return;
        }
        await dialog.getByRole('button', { name: /^Pay \$\d/ }).click();
        await page.getByText(/^Started the payout of \$\d+\.\d\d for order .* debit card\.$/).waitFor();
        await expectAccessible(page);
        await session.screenshot(`ledger2-pay-done-${viewport.width}`, { fullPage: false });
        expect((await stripe.payouts.list({}, { stripeAccount: accountId })).data).toHaveLength(1);
      });
    });
  }
});
