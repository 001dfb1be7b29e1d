import type { Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { logInQuickly, type BrowserSession } from './browser';

/**
 * A customer buys the first product of the demo member's list through the member's share link:
 * the member logs in (in `member`'s browser), copies the link from the product, and the customer
 * opens it in a new page and pays with Stripe's 4242 test card, shipping to Washington DC.
 * Answers the order number the thank-you screen shows.
 */
export async function buyThroughMemberLink(
  member: BrowserSession,
  customer: { name: string; email: string },
): Promise<string> {
  const { page } = member;
  await logInQuickly(page, inject('accounts').member);
  await page.getByTestId('product-card').first().click();
  await page.waitForURL(/\/member_product_detail\?id=/);
  const link = await page.getByLabel('Your link').inputValue();
  const shop = await member.context.newPage();
  await shop.goto(link);
  const orderNumber = await payOnSharePage(shop, customer);
  await shop.close();
  return orderNumber;
}

/**
 * On an opened share page: fills the customer's details (shipping to Washington DC) and pays with a
 * Stripe test card (4242 unless `card` names another, such as the dispute card 4000000000000259).
 * Answers the order number the thank-you screen shows.
 */
export async function payOnSharePage(
  shop: Page,
  customer: { name: string; email: string },
  card = '4242424242424242',
): Promise<string> {
  await shop.locator('h1#product-name').waitFor();
  await shop.getByLabel('Full name').fill(customer.name);
  await shop.getByLabel('E-mail').fill(customer.email);
  await shop.getByLabel('Street address').fill('1600 Pennsylvania Ave NW');
  await shop.getByLabel('City').fill('Washington');
  await shop.getByLabel('State').selectOption('DC');
  await shop.getByLabel('ZIP code').fill('20500');
  await shop.getByLabel('Card number').pressSequentially(card);
  await shop.getByLabel('Expiry').pressSequentially('1234');
  await shop.getByLabel('CVC').fill('123');
  await shop.getByRole('button', { name: /^Pay / }).click();
  await shop.getByTestId('thank-you').waitFor();
  const orderNumber = (await shop.getByTestId('order-number').textContent()) ?? '';
  expect(orderNumber).toMatch(/^RP-[0-9A-Z]{8}$/);
  return orderNumber;
}
