import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  api,
  at,
  DESKTOP,
  expectAccessible,
  logInQuickly,
  openBrowser,
  pageErrors,
  PHONE_390,
  type BrowserSession,
} from './browser';

/**
 * Issue 28's admin items in a real browser at 390 and 1280 px, each screen checked by axe: the
 * catalogue lists with search, withdraw (the share page then says so) and back into review; Record
 * an order picks the product with the combobox; the admin home's figures link to their lists; and
 * no screen tells the admin, who sells nothing, to set up payouts.
 */

const VIEWPORTS = [PHONE_390, DESKTOP] as const;
const tag = `Adm${randomUUID().slice(0, 6)}`;
const NAMES = ['Lantern', 'Kettle', 'Blanket', 'Compass', 'Canteen'].map((name) => `${tag} ${name}`);

type Session = { access_token: string; userProfile: { shareCode: string } };

/** Five products of this file's own, imported and moderated through the API: three approved, one banned, one in review. */
async function seedProducts(adminToken: string): Promise<Map<string, string>> {
  const header =
    'product_name,brand,msrp_us,dropshipping_price_us,product_images_1,product_images_2,product_images_3,' +
    'product_images_4,product_images_5,product_images_6,additional_product_images,html_description,url,spu_no';
  const rows = NAMES.map(
    (name, index) =>
      `${name},Trailhead,${30 + index}.00,${15 + index}.50,,,,,,,,<p>${name}.</p>,https://www.northwind-supply.test/${tag}-${index},${tag.toUpperCase()}-${index}`,
  );
  const form = new FormData();
  form.append('file', new Blob([`${header}\n${rows.join('\n')}\n`], { type: 'text/csv' }), `${tag}.csv`);
  const { job } = await api<{ job: { id: string } }>('products', form, adminToken);
  for (let wait = 0; ; wait++) {
    const { status } = await api<{ status: string }>('getImportJob', { id: job.id }, adminToken);
    if (status === 'completed') break;
    if (status === 'rejected' || status === 'failed' || wait > 300) throw new Error(`The import ended ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const ids = new Map<string, string>();
  let cursor: string | undefined;
  do {
    const page = await api<{ items: { id: string; product_name: string }[]; nextCursor: string | null }>(
      'getUnApprovedProducts',
      { limit: 100, ...(cursor ? { cursor } : {}) },
      adminToken,
    );
    for (const item of page.items) if (NAMES.includes(item.product_name)) ids.set(item.product_name, item.id);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  for (const name of NAMES.slice(0, 3)) {
    const id = ids.get(name)!;
    const { version } = await api<{ version: string }>('getImportedProduct', { id }, adminToken);
    await api('approveProduct', { id, version }, adminToken);
  }
  await api('banProduct', { id: ids.get(NAMES[3]!)! }, adminToken);
  return ids;
}

describe('the admin’s everyday work, at 390 and 1280 px', () => {
  let session: BrowserSession;
  let ids: Map<string, string>;
  let shareCode = '';

  beforeAll(async () => {
    const { admin, member } = inject('accounts');
    const adminToken = (await api<Session>('login', admin)).access_token;
    shareCode = (await api<Session>('login', member)).userProfile.shareCode;
    ids = await seedProducts(adminToken);
    session = await openBrowser({ viewport: DESKTOP });
    await logInQuickly(session.page, admin);
  }, 120_000);

  afterAll(async () => {
    await session?.close();
  });

  it('lists approved and banned products with search; withdraws one (its share page says so) and puts one back into review', async () => {
    const { page } = session;
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.goto(at(`/admin/catalogue?list=approved`));
      await page.getByRole('heading', { level: 1, name: 'Catalogue' }).waitFor();
      await page.getByLabel('Search by name or SPU').fill(tag.toLowerCase());
      await page.getByRole('link', { name: NAMES[0] }).waitFor();
      await expect.poll(() => page.locator('.catalogue-row').count()).toBeGreaterThan(0);
      await expectAccessible(page);
      await session.screenshot(`admin-catalogue-approved-${viewport.width}`);
    }
    // Search by SPU finds the one product.
    await page.getByLabel('Search by name or SPU').fill(`${tag.toUpperCase()}-2`);
    await expect.poll(() => page.locator('.catalogue-row').count()).toBe(1);
    await page.getByRole('link', { name: NAMES[2] }).waitFor();

    // Withdraw, with a confirmation naming the product.
    await page.getByRole('button', { name: `Withdraw ${NAMES[2]}` }).click();
    const confirm = page.getByRole('group', { name: `Confirm for ${NAMES[2]}` });
    await confirm.getByText(`Withdraw “${NAMES[2]}” from members?`, { exact: false }).waitFor();
    await expectAccessible(page);
    await session.screenshot(`admin-catalogue-withdraw-confirm-${DESKTOP.width}`);
    await confirm.getByRole('button', { name: 'Withdraw it' }).click();
    await page.getByText(`“${NAMES[2]}” was withdrawn`, { exact: false }).waitFor();
    await page.getByRole('link', { name: 'Withdrawn', exact: true }).click();
    await page.getByRole('link', { name: NAMES[2] }).waitFor();
    await expectAccessible(page);

    // The customer on the share link is told in words; nothing to buy.
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.goto(at(`/shop/${ids.get(NAMES[2]!)}?ref=${shareCode}`));
      await page.getByText('This product has been withdrawn from sale.').waitFor();
      expect(await page.getByRole('button', { name: /Buy|Pay/ }).count()).toBe(0);
      await expectAccessible(page);
      await session.screenshot(`shop-withdrawn-${viewport.width}`);
    }

    // A banned product goes back into review.
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.goto(at(`/admin/catalogue?list=banned&q=${encodeURIComponent(tag)}`));
      await page.getByRole('link', { name: NAMES[3] }).waitFor();
      await expectAccessible(page);
      await session.screenshot(`admin-catalogue-banned-${viewport.width}`);
    }
    await page.getByRole('button', { name: `Put back into review ${NAMES[3]}` }).click();
    await page.getByRole('button', { name: 'Put it back into review' }).click();
    await page.getByText(`“${NAMES[3]}” is back in review`, { exact: false }).waitFor();
    await page.getByText(`No banned product has the SPU “${tag}” or a name starting with it.`).waitFor();
    expect(pageErrors(session)).toEqual([]);
  }, 120_000);

  it('records an order picking the product by name with the keyboard', async () => {
    const { page } = session;
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.goto(at('/admin/orders'));
      await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
      await page.getByText('Record an order', { exact: true }).click();
      const form = page.getByRole('form', { name: 'Record an order' });
      const picker = form.getByRole('combobox', { name: 'Product' });
      await picker.fill(`${tag} kett`);
      const option = form.getByRole('option', { name: new RegExp(NAMES[1]!) });
      await option.waitFor();
      await page.getByText('1 product found', { exact: false }).waitFor({ state: 'attached' });
      await expectAccessible(page);
      await session.screenshot(`admin-record-order-picker-${viewport.width}`, { fullPage: false });
      await picker.press('ArrowDown');
      expect(await picker.getAttribute('aria-activedescendant')).toBe(await option.getAttribute('id'));
      await picker.press('Enter');
      expect(await picker.inputValue()).toBe(NAMES[1]);
      await form.getByText(`Picked: ${NAMES[1]}`, { exact: false }).waitFor();
      await form.getByLabel('Member share code').fill(shareCode);
      await form.getByRole('button', { name: 'Record the order' }).click();
      await page.getByText(/Order RP-\S+ recorded/).waitFor();
      await expectAccessible(page);
      await session.screenshot(`admin-record-order-done-${viewport.width}`);
    }
    expect(pageErrors(session)).toEqual([]);
  }, 120_000);

  it('shows the day’s figures on the admin home, each linking to its list; no payout reminder', async () => {
    const { page } = session;
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.goto(at('/admin/'));
      const work = page.getByRole('region', { name: 'Today’s work' });
      const toOrder = work.getByRole('link', { name: /Orders to order from the supplier/ });
      await toOrder.waitFor();
      // The two orders just recorded wait to be ordered; a product waits for review.
      const value = Number((await toOrder.locator('.admin-figure__value').textContent()) ?? '0');
      expect(value).toBeGreaterThanOrEqual(2);
      await work.getByRole('link', { name: /Products? waiting for review/ }).waitFor();
      expect(await page.getByTestId('attention-badge').count()).toBe(0);
      await expectAccessible(page);
      await session.screenshot(`admin-home-${viewport.width}`);
      await toOrder.click();
      await page.waitForURL(/\/admin\/orders\/not_ordered_yet$/);
    }
    for (const path of ['/admin/catalogue', '/admin/catalogue?list=withdrawn']) {
      await page.goto(at(path));
      await page.getByRole('heading', { level: 1, name: 'Catalogue' }).waitFor();
      await page.getByRole('button', { name: 'Open menu' }).waitFor();
      expect(await page.getByTestId('attention-badge').count(), path).toBe(0);
    }
    expect(pageErrors(session)).toEqual([]);
  }, 120_000);
});
