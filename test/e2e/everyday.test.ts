import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  at,
  DESKTOP,
  ensureApprovedProduct,
  expectAccessible,
  logIn,
  openBrowser,
  pageErrors,
  PHONE_390,
  type BrowserSession,
  api,
} from './browser';

/**
 * The small everyday things of issue 28, in a real browser at 390 and 1280 px, each screen checked
 * by axe: sign-up says a refused password once, at the field; sign-up and login lead to the same
 * place; the payout form adds https:// to a social link and says so, and its address search says
 * to add the city or ZIP code when a street alone finds nothing; the admin app carries no payout
 * reminder on its top bar; Top Earners' number headers line up with their numbers.
 */

const VIEWPORTS = [PHONE_390, DESKTOP] as const;
const COMMON_PASSWORD_MESSAGE = 'This password is too common';

/** Where the page is, without its origin. */
const pathOf = (page: Page) => {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
};

describe('everyday things, at 390 and 1280 px', () => {
  let session: BrowserSession;
  const email = `e2e-everyday-${randomUUID().slice(0, 8)}@example.com`;
  const password = 'e2e-everyday-password';

  beforeAll(async () => {
    session = await openBrowser({ viewport: PHONE_390 });
  });

  afterAll(async () => {
    await session?.close();
  });

  it('says a too common password once, at the password field', async () => {
    const { page } = session;
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.goto(at('/signup'));
      await page.getByLabel('Email', { exact: true }).fill(`e2e-common-${randomUUID().slice(0, 8)}@example.com`);
      await page.getByLabel('Password', { exact: true }).fill('password123');
      await page.getByRole('button', { name: 'Sign up' }).click();
      const field = page.getByLabel('Password', { exact: true });
      await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByText(COMMON_PASSWORD_MESSAGE).count()).toBe(1);
      expect(await page.getByRole('alert').count()).toBe(0);
      expect(await field.evaluate((input) => input === document.activeElement)).toBe(true);
      await expectAccessible(page);
      await session.screenshot(`signup-common-password-${viewport.width}`);
    }
  });

  it('signs up and logs in to the same place', async () => {
    const { page } = session;
    await page.setViewportSize(PHONE_390);
    await page.goto(at('/signup'));
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('heading', { level: 1, name: 'Product List' }).waitFor();
    const afterSignup = pathOf(page);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(at('/login'));
    await logIn(page, { email, password });
    expect(pathOf(page)).toBe(afterSignup);
  });

  it('adds https:// to a social link and says so; a street alone asks for the city or ZIP code', async () => {
    const { page } = session;
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.goto(at('/my_account/create_payout_account'));
      await page.getByRole('heading', { level: 1, name: 'Create payout account' }).waitFor();
      const link = page.getByLabel('Social profile link');
      await link.fill('instagram.com/everyday');
      await link.blur();
      await expect.poll(() => link.inputValue()).toBe('https://instagram.com/everyday');
      await page.getByText('We added https:// to your link.').waitFor();
      expect(await link.getAttribute('aria-invalid')).toBeNull();

      const street = page.getByRole('combobox', { name: 'Street address' });
      await street.fill('1600 Pennsylvania Avenue');
      const note = page.getByTestId('address-note');
      await note.waitFor();
      expect(await note.textContent()).toBe('Add the city or ZIP code to find the address');
      expect((await street.getAttribute('aria-describedby'))?.split(' ')).toContain(await note.getAttribute('id'));
      await expectAccessible(page);
      await session.screenshot(`payout-form-link-and-address-${viewport.width}`);
      // With its ZIP code the street is found, and the note goes.
      await street.fill('1600 Pennsylvania Avenue 20500');
      await page.getByRole('option').first().waitFor();
      expect(await note.count()).toBe(0);
    }
    expect(pageErrors(session)).toEqual([]);
  });
});

describe('the admin app', () => {
  let admin: BrowserSession;

  beforeAll(async () => {
    await ensureApprovedProduct();
    // A sale, so that Top Earners has a row: recorded by the admin for the seeded member.
    const { member: memberAccount, admin: adminAccount } = inject('accounts');
    type Session = { access_token: string; userProfile: { shareCode: string | null } };
    const member = await api<Session>('login', memberAccount);
    const adminSession = await api<Session>('login', adminAccount);
    const { items } = await api<{ items: { id: string }[] }>('getApprovedProducts', { limit: 1 }, member.access_token);
    const ref = member.userProfile.shareCode;
    if (!ref || !items[0]) throw new Error('The seeded member has no share code, or no product is approved');
    await api('addOrder', { product_id: items[0].id, qty: 1, ref }, adminSession.access_token);
    admin = await openBrowser({ viewport: DESKTOP });
  });

  afterAll(async () => {
    await admin?.close();
  });

  it('asks an admin who has not chosen to sell nothing about payouts: no badge, banner or drawer box', async () => {
    const { page } = admin;
    const account = inject('accounts').admin;
    await logIn(page, account);
    // Landing in the member app: no "Finish setting up your payouts" banner, no red badge.
    expect(await page.getByRole('heading', { name: 'Finish setting up your payouts' }).count()).toBe(0);
    expect(await page.getByTestId('attention-badge').count()).toBe(0);
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      for (const path of ['/admin/', '/admin/orders', '/admin/payouts']) {
        await page.goto(at(path));
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        await page.getByRole('button', { name: 'Open menu' }).waitFor();
        expect(await page.getByTestId('attention-badge').count(), path).toBe(0);
      }
      await page.getByRole('button', { name: 'Open menu' }).click();
      const drawer = page.getByRole('dialog', { name: 'Menu' });
      await drawer.waitFor();
      // The seeded admin has not chosen to sell (no payout account): nothing asks them to set payouts up.
      await drawer.getByRole('link', { name: 'Orders' }).first().waitFor();
      expect(await drawer.getByRole('link', { name: /^Finish your payout set-up/ }).count()).toBe(0);
      await expectAccessible(page);
      await admin.screenshot(`admin-no-payout-badge-${viewport.width}`, { fullPage: false });
      await page.keyboard.press('Escape');
      await drawer.waitFor({ state: 'detached' });
    }
  });

  it("lines Top Earners' number headers up with their numbers (right-aligned)", async () => {
    const { page } = admin;
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.goto(at('/admin/payouts/top_earners'));
      await page.getByRole('heading', { level: 1, name: 'Top Earners' }).waitFor();
      if (viewport.width < 640) {
        // A phone shows a card per member (no header row to line up): each line names its number.
        const card = page.getByTestId('table-cards').getByRole('listitem').first();
        await card.waitFor();
        expect(await card.locator('dt').allTextContents()).toEqual(['Member', 'Commissions', 'Total']);
        await expectAccessible(page);
        await admin.screenshot(`top-earners-${viewport.width}`);
        continue;
      }
      const table = page.getByRole('region', { name: 'Top earners' });
      await table.waitFor();
      // The plain first page, then the grid once the pointer comes: both line up.
      for (const stage of ['plain', 'grid'] as const) {
        if (stage === 'grid') {
          await table.hover();
          await page.locator('.ag-header-cell[col-id="total"]').waitFor();
        }
        const edges = await page.evaluate((kind) => {
          const right = (element: Element | null | undefined) => element?.getBoundingClientRect().right ?? NaN;
          const textRight = (element: Element | null | undefined) => {
            if (!element) return NaN;
            const range = document.createRange();
            range.selectNodeContents(element);
            return range.getBoundingClientRect().right;
          };
          if (kind === 'plain') {
            const headers = [...document.querySelectorAll('.data-table__plain thead th')];
            // The header's text, without the order's mark (▼: highest first).
            const index = headers.findIndex((header) => header.textContent?.replace(/[▲▼]/g, '') === 'Total');
            const cells = [...document.querySelectorAll(`.data-table__plain tbody tr td:nth-child(${index + 1})`)];
            return {
              header: textRight(headers[index]),
              cells: cells.map(textRight),
              box: right(headers[index]),
            };
          }
          const header = document.querySelector('.ag-header-cell[col-id="total"] .ag-header-cell-text');
          const cells = [
            ...document.querySelectorAll('.ag-cell[col-id="total"] .ag-cell-value, .ag-cell[col-id="total"]'),
          ];
          return {
            header: textRight(header),
            cells: cells.filter((cell) => !cell.querySelector('.ag-cell-value')).map(textRight),
            box: right(document.querySelector('.ag-header-cell[col-id="total"]')),
          };
        }, stage);
        expect(edges.cells.length, `${stage} at ${viewport.width}`).toBeGreaterThan(0);
        for (const cell of edges.cells)
          expect(Math.abs(cell - edges.header), `${stage} at ${viewport.width}`).toBeLessThan(3);
        // Right-aligned: the header's text ends near its cell's right edge, not at its left.
        expect(edges.box - edges.header, `${stage} at ${viewport.width}`).toBeLessThan(40);
        if (stage === 'plain') {
          await expectAccessible(page);
          await admin.screenshot(`top-earners-${viewport.width}`);
        }
      }
      await expectAccessible(page);
      await admin.screenshot(`top-earners-grid-${viewport.width}`);
    }
    expect(pageErrors(admin)).toEqual([]);
  });
});
