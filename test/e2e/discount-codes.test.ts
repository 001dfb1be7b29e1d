import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  api,
  at,
  DESKTOP,
  ensureApprovedProduct,
  expectAccessible,
  logIn,
  openBrowser,
  pageErrors,
  PHONE_390,
  type BrowserSession,
} from './browser';

/**
 * Members' discount codes in a real browser against the started portal (issue 39): the admin
 * makes the demo member a code; a customer opens the product's page without a link, types the
 * code, sees the discounted price and pays it with Stripe's 4242 card (390 px); the admin sees the
 * code's use, revenue and order on Discount codes (1280 px). Each screen checked with axe.
 */
describe('a member’s discount code', () => {
  const code = `E2E${Date.now().toString(36).toUpperCase()}`;
  let product: { id: string; unitCents: number };
  let adminToken: string;

  beforeAll(async () => {
    await ensureApprovedProduct();
    const login = (account: { email: string; password: string }) => api<{ access_token: string }>('login', account);
    const member = await login(inject('accounts').member);
    adminToken = (await login(inject('accounts').admin)).access_token;
    const products = await api<{ items: { id: string }[] }>('getApprovedProducts', { limit: 1 }, member.access_token);
    const id = products.items[0]!.id;
    const shared = await api<{ unitAmountCents: number }>('getSharedProduct', { id });
    product = { id, unitCents: shared.unitAmountCents };
    await api(
      'createDiscountCode',
      { memberEmail: inject('accounts').member.email, code, percentOff: 10, maxRedemptions: 5 },
      adminToken,
    );
  });

  let customer: BrowserSession | undefined;
  let admin: BrowserSession | undefined;
  afterAll(async () => {
    await customer?.close();
    await admin?.close();
  });

  const paid = () => product.unitCents - Math.floor((product.unitCents * 1000 + 5000) / 10000);
  const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

  it('lets a customer without a link type the code, see the discounted price and pay it (390 px)', async () => {
    customer = await openBrowser({ viewport: PHONE_390 });
    const { page } = customer;
    await page.goto(at(`/shop/${product.id}`));
    await page.locator('h1#product-name').waitFor();
    await page.getByLabel('Code from a member').fill(code.toLowerCase());
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => page.getByTestId('checkout-discount').textContent()).toContain(`${code}: 10 % off`);
    await expect.poll(() => page.getByTestId('checkout-total').textContent()).toBe(dollars(paid()));
    await expectAccessible(page);
    await customer.screenshot('code-applied-390');

    await page.getByLabel('Full name').fill('Cody Buyer');
    await page.getByLabel('E-mail').fill('cody@example.com');
    await page.getByLabel('Street address').fill('1600 Pennsylvania Ave NW');
    await page.getByLabel('City').fill('Washington');
    await page.getByLabel('State').selectOption('DC');
    await page.getByLabel('ZIP code').fill('20500');
    await page.getByLabel('Card number').pressSequentially('4242424242424242');
    await page.getByLabel('Expiry').pressSequentially('1234');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: `Pay ${dollars(paid())}` }).click();
    await page.getByTestId('thank-you').waitFor();
    expect(await page.getByTestId('order-number').textContent()).toMatch(/^RP-[0-9A-Z]{8}$/);
    expect(pageErrors(customer)).toEqual([]);
  });

  it('says in words why a turned-off code cannot be used (390 px)', async () => {
    const off = `${code}X`;
    await api(
      'createDiscountCode',
      { memberEmail: inject('accounts').member.email, code: off, percentOff: 5 },
      adminToken,
    );
    await api('disableDiscountCode', { code: off }, adminToken);
    const { page } = customer!;
    await page.goto(at(`/shop/${product.id}`));
    await page.locator('h1#product-name').waitFor();
    await page.getByLabel('Code from a member').fill(off);
    await page.getByRole('button', { name: 'Apply' }).click();
    await page
      .getByText(`The discount code ${off} has been turned off by the shop.`, { exact: false })
      .first()
      .waitFor();
    await expect.poll(() => page.getByTestId('checkout-total').textContent()).toBe(dollars(product.unitCents));
    await expectAccessible(page);
  });

  it('shows the admin the code’s use, revenue and order (1280 px)', async () => {
    admin = await openBrowser({ viewport: DESKTOP });
    const { page } = admin;
    await logIn(page, inject('accounts').admin);
    await page.goto(at('/admin/discount_codes'));
    await page.getByRole('heading', { level: 1, name: 'Discount codes' }).waitFor();
    const card = page.getByTestId(`code-${code}`);
    await card.waitFor();
    await expect.poll(() => card.textContent()).toContain(`Revenue${dollars(paid())}`);
    expect(await card.textContent()).toContain('Uses1');
    await card.getByText(`Orders with ${code}`).click();
    await card.getByText(/^RP-[0-9A-Z]{8}: paid/).waitFor();
    await expectAccessible(page);
    await admin.screenshot('codes-admin-1280');
    expect(pageErrors(admin)).toEqual([]);
  });
});
