import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  DESKTOP,
  PHONE_390,
  at,
  expectAccessible,
  logInQuickly,
  openBrowser,
  pageErrors,
  type BrowserSession,
} from './browser';
import { fundPlatform, payoutMember, portalStripe } from './payout-member';

/**
 * The admin's Reconciliation screen in a real browser against the started portal and its Stripe
 * emulator, at 390 and 1280 px: a period with nothing in it answers "No differences"; after a
 * transfer made by hand at Stripe (the real `stripe` SDK against the emulator) today's period
 * lists it in words, with the member's name and both sides' ids. Other browser tests share this
 * portal (one pays the platform by hand too), so today's list is checked for this transfer.
 */

const VIEWPORTS = [PHONE_390, DESKTOP] as const;

const today = () => new Date().toISOString().slice(0, 10);

describe('Reconciliation, at 390 and 1280 px', () => {
  let transferText = '';
  let transferId = '';
  let accountId = '';

  beforeAll(async () => {
    // A member with a verified payout account, made through the API.
    accountId = (await payoutMember({ tag: 'recon', firstName: 'Rae', lastName: 'Recon' })).accountId;
    // By hand at Stripe: funds for the platform, then a transfer to the member our ledger never made.
    const stripe = portalStripe();
    const funding = await fundPlatform(5_000);
    const transfer = await stripe.transfers.create(
      { amount: 1_234, currency: 'usd', destination: accountId, source_transaction: String(funding.latest_charge) },
      { idempotencyKey: `e2e-recon-${randomUUID()}` },
    );
    transferId = transfer.id;
    transferText = `Transfer ${transfer.id} of $12.34 to ${accountId} (member Rae Recon) on ${today()} is in Stripe but not in our ledger.`;
  });

  for (const viewport of VIEWPORTS) {
    describe(`at ${viewport.width} px`, () => {
      let session: BrowserSession;
      beforeAll(async () => {
        session = await openBrowser({ viewport });
        await logInQuickly(session.page, inject('accounts').admin);
      });
      afterAll(async () => session?.close());

      it('answers "No differences" for a period with nothing in it, run from the keyboard', async () => {
        const { page } = session;
        await page.goto(at('/admin/reconciliation'));
        await page.getByRole('heading', { level: 1, name: 'Reconciliation' }).waitFor();
        await page.getByLabel('From', { exact: true }).fill('2020-01-01');
        await page.getByLabel('To', { exact: true }).fill('2020-01-31');
        await page.getByLabel('To', { exact: true }).press('Enter');
        await page.getByRole('heading', { level: 2, name: 'No differences', exact: true }).waitFor();
        await expect
          .poll(() => page.getByRole('heading', { level: 2, name: '2020-01-01 to 2020-01-31' }).count())
          .toBe(1);
        await expectAccessible(page);
        await session.screenshot(`reconcile-none-${viewport.width}`);
      });

      it('refuses a period that ends before it starts, at its field', async () => {
        const { page } = session;
        await page.getByLabel('From', { exact: true }).fill('2026-11-20');
        await page.getByLabel('To', { exact: true }).fill('2026-11-01');
        await page.getByRole('button', { name: 'Run' }).click();
        await page.getByText('The period ends before it starts: choose an end on or after 2026-11-20.').waitFor();
        expect(await page.getByLabel('To', { exact: true }).getAttribute('aria-invalid')).toBe('true');
        await expectAccessible(page);
      });

      it('lists the transfer made by hand at Stripe today, with the member and both sides’ ids', async () => {
        const { page } = session;
        await page.getByLabel('From', { exact: true }).fill(today());
        await page.getByLabel('To', { exact: true }).fill(today());
        await page.getByRole('button', { name: 'Run' }).click();
        const item = page.getByRole('listitem').filter({ hasText: transferText });
        await item.waitFor();
        expect(await item.getByText('Transfer: in Stripe only').count()).toBe(1);
        expect(await item.getByText(`${transferId}, ${accountId}`).count()).toBe(1);
        // Nothing is cut off: the item fits the viewport's width.
        const box = await item.boundingBox();
        expect(box!.x).toBeGreaterThanOrEqual(0);
        expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
        await expectAccessible(page);
        await session.screenshot(`reconcile-differences-${viewport.width}`);
        expect(pageErrors(session)).toEqual([]);
      });
    });
  }
});
