import type { Page } from 'playwright-core';
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
import { payoutAccountForm } from '../fixtures/payout-account';

/**
 * Issue 28, "Tables", in a real browser at 390 and 1280 px: every table is usable from its first
 * paint, with no mouse move: the pager and the page sizes (5 first) show, no text is cut (each
 * cell's and the pager's scrollWidth within its clientWidth, the card within the window), every
 * column is reachable on a phone (a card per row with every column), the rows sort by amount, and
 * All orders is searched on the server by order number. axe checks each screen.
 */

const VIEWPORTS = [PHONE_390, DESKTOP] as const;
const ORDER_COLUMNS = ['Order date', 'Order ID', 'Product', 'Total', 'Member', 'Status'];
const ORDERS = 12;
/** Opens a screen with the pointer out of the way, so that nothing but the first paint shows. */
async function openUntouched(page: Page, path: string) {
  await page.mouse.move(0, 0);
  await page.goto(at(path));
  await page.getByTestId('data-table').first().waitFor();
}

/**
 * What is cut in the table: each cell, card line and pager button whose text is wider than its box,
 * and whether the card or the pager reach past the window.
 */
async function cutOff(page: Page) {
  return page.evaluate(() => {
    const table = document.querySelector('[data-testid="data-table"]')!;
    const cut = [
      ...table.querySelectorAll(
        'td, th, .ag-cell, .ag-header-cell-text, dd, dt, .data-table__pager button, .data-table__page',
      ),
    ]
      .filter((element) => element.scrollWidth > element.clientWidth + 1)
      .map((element) => `${element.tagName.toLowerCase()} "${element.textContent}"`);
    const pager = table.querySelector('.data-table__pager')!.getBoundingClientRect();
    const card = table.getBoundingClientRect();
    // A cell that reaches past the card (the grid's own viewport would hide its end).
    const past = [...table.querySelectorAll('td, th, .ag-cell, .ag-header-cell, dd')]
      .filter((element) => element.getBoundingClientRect().right > card.right + 1)
      .map((element) => `past the card: "${element.textContent}"`);
    cut.push(...past);
    return {
      cut,
      pagerInside: pager.left >= 0 && pager.right <= window.innerWidth,
      cardInside: card.right <= window.innerWidth,
      cardOverflows: table.scrollWidth > table.clientWidth + 1,
      form: table.getAttribute('data-form'),
    };
  });
}

describe('tables from their first paint, at 390 and 1280 px', () => {
  let session: BrowserSession;
  let orderNumber = '';

  beforeAll(async () => {
    await ensureApprovedProduct();
    const { member: memberAccount, admin: adminAccount } = inject('accounts');
    type Session = { access_token: string; userProfile: { shareCode: string | null } };
    const member = await api<Session>('login', memberAccount);
    const admin = await api<Session>('login', adminAccount);
    const { items } = await api<{ items: { id: string }[] }>('getApprovedProducts', { limit: 1 }, member.access_token);
    const ref = member.userProfile.shareCode;
    if (!ref || !items[0]) throw new Error('The seeded member has no share code, or no product is approved');
    // Enough orders for more than one page, of different quantities (so different totals).
    for (let index = 0; index < ORDERS; index++) {
      const { order } = await api<{ order: { orderID: string } }>(
        'addOrder',
        { product_id: items[0].id, qty: (index % 4) + 1, ref },
        admin.access_token,
      );
      orderNumber = order.orderID;
    }
    session = await openBrowser({ viewport: DESKTOP });
  }, 120_000);

  afterAll(async () => {
    await session?.close();
  });

  it("shows the admin's orders with pager, page sizes and every column, nothing cut, and sorts by amount", async () => {
    const { page } = session;
    await logInQuickly(page, inject('accounts').admin);
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await openUntouched(page, '/admin/orders');
      const phone = viewport.width < 640;
      const pager = page.getByRole('navigation', { name: 'All orders: pages' });
      await pager.waitFor();
      expect(await pager.getByText(/^Page 1 of \d+$/).isVisible()).toBe(true);
      for (const name of ['First page', 'Previous page', 'Next page', 'Last page'])
        expect(await pager.getByRole('button', { name }).isVisible(), name).toBe(true);
      const size = page.getByLabel('Rows per page');
      expect(await size.locator('option').allTextContents()).toEqual(['5', '7', '10', '15', '20', '25', '50', 'All']);
      expect(await size.inputValue()).toBe('5');
      expect(await page.getByText(/^Rows 1–5 of \d+/).isVisible()).toBe(true);

      const first = await cutOff(page);
      // The first paint: no grid yet on a wide screen (nothing moved the pointer), cards on a phone.
      expect(first.form).toBe(phone ? 'cards' : 'plain');
      expect(first.cut, `cut at ${viewport.width}`).toEqual([]);
      expect(first.pagerInside && first.cardInside && !first.cardOverflows, `inside at ${viewport.width}`).toBe(true);
      if (phone) {
        // Every column is on each card.
        const cards = page.getByTestId('table-cards').getByRole('listitem');
        expect(await cards.count()).toBe(5);
        expect(await cards.first().locator('dt').allTextContents()).toEqual(ORDER_COLUMNS);
      } else {
        expect(await page.locator('.data-table__plain th').allTextContents()).toEqual(ORDER_COLUMNS);
      }
      await expectAccessible(page);
      await session.screenshot(`tables-orders-first-paint-${viewport.width}`);

      // Sorted by amount, highest first: the totals shown go down.
      await page.getByLabel('Sort by').selectOption('total:desc');
      const totals = await page.evaluate((cards) => {
        const texts = cards
          ? [...document.querySelectorAll('[data-testid="table-cards"] li')].map(
              (card) => [...card.querySelectorAll('dd')][3]?.textContent ?? '',
            )
          : [...document.querySelectorAll('.data-table__plain tbody tr')].map(
              (row) => row.querySelectorAll('td')[3]?.textContent ?? '',
            );
        return texts.map((text) => Number(text.replace(/[$,]/g, '')));
      }, phone);
      expect(totals).toHaveLength(5);
      expect([...totals].sort((a, b) => b - a)).toEqual(totals);

      if (!phone) {
        // The pointer comes: the grid takes the table's place, still with nothing cut.
        await page.getByTestId('data-table').hover();
        await page.locator('[data-testid="data-table"][data-form="grid"] .ag-row').first().waitFor();
        const grid = await cutOff(page);
        expect(grid.cut, 'cut in the grid').toEqual([]);
        expect(grid.pagerInside && grid.cardInside && !grid.cardOverflows).toBe(true);
        await expectAccessible(page);
        await session.screenshot(`tables-orders-grid-${viewport.width}`);
      }
    }
    expect(pageErrors(session)).toEqual([]);
  });

  it('searches All orders on the server by order number', async () => {
    const { page } = session;
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await openUntouched(page, '/admin/orders');
      const search = page.getByRole('search', { name: 'Search orders' });
      await search.getByLabel('Order number').fill(orderNumber.toLowerCase());
      await search.getByRole('button', { name: 'Search' }).click();
      await page.getByText(/^1 row\b/).waitFor();
      expect(await page.getByTestId('data-table').textContent()).toContain(orderNumber);
      // A number written wrong: the server's words under the field.
      await search.getByLabel('Order number').fill('12345');
      await search.getByRole('button', { name: 'Search' }).click();
      await search.getByText('Enter an order number as it is written, like RP-7F3K9Q2M.').waitFor();
      await expectAccessible(page);
      await session.screenshot(`tables-orders-search-${viewport.width}`);
    }
  });

  it("shows the member's commissions with the amount whole on a phone", async () => {
    // A member with a payout account (its page holds their commission table) and three sales.
    type Session = { access_token: string; userProfile: { shareCode: string | null } };
    const account = { email: `e2e-tables-${Date.now()}@example.com`, password: 'e2e-tables-password-41' };
    const seller = await api<Session>('signup', account);
    await api('createPayoutAccount', payoutAccountForm, seller.access_token);
    const admin = await api<Session>('login', inject('accounts').admin);
    const { items } = await api<{ items: { id: string }[] }>('getApprovedProducts', { limit: 1 }, seller.access_token);
    for (let index = 0; index < 3; index++)
      await api(
        'addOrder',
        { product_id: items[0]!.id, qty: 3, ref: seller.userProfile.shareCode },
        admin.access_token,
      );
    const member = await openBrowser({ viewport: PHONE_390 });
    try {
      const { page } = member;
      await logInQuickly(page, account);
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize(viewport);
        await openUntouched(page, '/my_account/payout_account');
        await page.getByRole('navigation', { name: /pages$/ }).waitFor();
        const shown = await cutOff(page);
        expect(shown.cut, `cut at ${viewport.width}`).toEqual([]);
        expect(shown.pagerInside && shown.cardInside && !shown.cardOverflows).toBe(true);
        const amounts =
          viewport.width < 640
            ? await page.evaluate(() =>
                [...document.querySelectorAll('[data-testid="table-cards"] li')].map(
                  (card) => [...card.querySelectorAll('dd')][3]?.textContent ?? '',
                ),
              )
            : await page.locator('.data-table__plain tbody tr td:nth-child(4)').allTextContents();
        expect(amounts.length).toBeGreaterThan(0);
        for (const amount of amounts) expect(amount).toMatch(/^\$\d+\.\d\d$/);
        await expectAccessible(page);
        await member.screenshot(`tables-member-commissions-${viewport.width}`);
      }
      expect(pageErrors(member)).toEqual([]);
    } finally {
      await member.close();
    }
  });
});
