import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  at,
  DESKTOP,
  expectAccessible,
  ensureApprovedProduct,
  logInQuickly,
  openBrowser,
  pageErrors,
  PHONE_390,
  type BrowserSession,
} from './browser';

/**
 * The sales loop in a real browser against the started portal and its Stripe emulator: a member
 * copies their share link from a product; a logged-out customer opens it on a phone, is declined
 * with 4000 0000 0000 0002, pays for 2 with 4242 4242 4242 4242 and sees the order number; the
 * member's /my_account shows the commission in processing.

 */
describe('checkout through a member’s share link', () => {
  let member: BrowserSession;
  let customer: BrowserSession;
  let link = '';

  beforeAll(async () => {
    await ensureApprovedProduct();
    member = await openBrowser({ viewport: DESKTOP });
    customer = await openBrowser({ viewport: PHONE_390 });
  });

  afterAll(async () => {
    await member?.close();
    await customer?.close();
  });

  it('a member copies their personal share link from a product', async () => {
    const { page } = member;
    await member.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await logInQuickly(page, inject('accounts').member);
    await page.getByTestId('product-card').first().click();
    await page.waitForURL(/\/member_product_detail\?id=/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Link copied').waitFor();
    link = await page.getByLabel('Your link').inputValue();
    expect(link).toMatch(/\/shop\/[^/?]+\?ref=[A-Za-z0-9_-]+$/);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  });

  it('a logged-out customer opens it on a phone, is declined, then buys 2 and sees the order number', async () => {
    const { page } = customer;
    await page.goto(link);
    await page.locator('h1#product-name').waitFor();
    const unit = (await page.getByTestId('shop-price').textContent()) ?? '';
    await page.getByLabel('Quantity').fill('2');
    await page.getByLabel('Full name').fill('Casey Customer');
    await page.getByLabel('E-mail').fill('casey@example.com');
    await page.getByLabel('Street address').fill('1600 Pennsylvania Ave NW');
    await page.getByLabel('City').fill('Washington');
    await page.getByLabel('State').selectOption('DC');
    await page.getByLabel('ZIP code').fill('20500');
    await page.getByLabel('Card number').pressSequentially('4000000000000002');
    await page.getByLabel('Expiry').pressSequentially('1234');
    await page.getByLabel('CVC').fill('123');
    const total = (await page.getByTestId('checkout-total').textContent()) ?? '';
    const cents = (text: string) => Math.round(Number(text.replace(/[$,]/g, '')) * 100);
    expect(cents(total)).toBe(cents(unit) * 2);
    await expectAccessible(page);
    await customer.screenshot('checkout-form-390');
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.locator('.field__error', { hasText: 'Your card was declined.' }).waitFor();

    await page.getByLabel('Card number').fill('');
    await page.getByLabel('Card number').pressSequentially('4242424242424242');
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.getByTestId('thank-you').waitFor();
    expect(await page.getByTestId('order-number').textContent()).toMatch(/^RP-[0-9A-Z]{8}$/);
    expect(await page.getByTestId('total-paid').textContent()).toBe(total);
    await customer.screenshot('checkout-thanks-390');
    const orderNumber = await page.getByTestId('order-number').textContent();

    // A reload shows the same thank-you, read back from the server: no empty Buy form.
    expect(new URL(page.url()).searchParams.get('paid')).toMatch(/^pi_/);
    await page.reload();
    await page.getByTestId('thank-you').waitFor();
    expect(await page.getByTestId('order-number').textContent()).toBe(orderNumber);
    expect(await page.getByTestId('total-paid').textContent()).toBe(total);
    expect(await page.getByRole('button', { name: /^Pay / }).count()).toBe(0);
    expect(await page.getByLabel('Card number').count()).toBe(0);
    await expectAccessible(page);
    await customer.screenshot('checkout-thanks-reloaded-390');
    await page.setViewportSize(DESKTOP);
    await expectAccessible(page);
    await customer.screenshot('checkout-thanks-reloaded-1280');
    await page.setViewportSize(PHONE_390);
    expect(pageErrors(customer)).toEqual([]);
  });

  it('the member sees the commission in processing on /my_account', async () => {
    const { page } = member;
    await page.goto(at('/my_account'));
    const processing = page.getByTestId('commissions-processing');
    await processing.waitFor();
    expect(await processing.textContent()).not.toBe('$0.00');
  });

  it('a Buy form whose code does not arrive says so in its card, and Retry brings it', async () => {
    const page = await customer.context.newPage();
    try {
      let lost = true;
      let refused = 0;
      // The form's chunk cannot be fetched (a dropped connection) until the test lets it through;
      // the rest of the page loads.
      await page.route(/\/assets\/CheckoutForm-[^/]+\.js$/, async (route) => {
        if (!lost) return route.continue();
        refused += 1;
        await route.abort('connectionreset');
      });
      await page.goto(link);
      await page.locator('h1#product-name').waitFor();
      const card = page.getByRole('region', { name: 'Buy' });
      await card.getByRole('alert').filter({ hasText: 'The checkout could not be loaded' }).waitFor();
      expect(await card.getByRole('alert').textContent()).toContain('Check your connection, then try again.');
      // The product stays on the page.
      expect(await page.getByTestId('shop-price').isVisible()).toBe(true);
      expect(refused).toBeGreaterThan(0);
      lost = false;
      await card.getByRole('button', { name: 'Retry' }).click();
      await page.getByLabel('Quantity').waitFor();
      expect(await page.getByRole('alert').count()).toBe(0);
    } finally {
      await page.close();
    }
  });
});
