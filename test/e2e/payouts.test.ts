import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { at, expectAccessible, openBrowser, PHONE_390, type BrowserSession } from './browser';

/**
 * Payout onboarding in a real browser against the started portal and its Stripe emulator: a new
 * member creates the payout account with the address autocomplete and the date dropdowns, is
 * refused a credit card in red, adds a debit card and sees it, and the red badges are gone.
 */

const DEBIT_REFUSED = "This card doesn't appear to be a debit card.";

describe('payout onboarding', () => {
  let session: BrowserSession;
  const email = `e2e-payout-${randomUUID().slice(0, 8)}@example.com`;

  beforeAll(async () => {
    session = await openBrowser({ viewport: PHONE_390 });
  });

  afterAll(async () => {
    await session?.close();
  });

  it('a new member creates the payout account with the address autocomplete and the dropdowns', async () => {
    const { page } = session;
    await page.goto(at('/signup'));
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('e2e-payout-password');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL(at('/'));

    await page.goto(at('/my_account'));
    await page.getByTestId('todo-payout-account').waitFor();
    await page.getByTestId('todo-payout-methods').waitFor();
    await page.getByRole('link', { name: /^Payout Account/ }).click();
    await page.getByRole('link', { name: 'Create payout account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Create payout account' }).waitFor();

    await page.getByLabel('Social profile link').fill('https://instagram.com/e2e.member');
    await page.getByLabel('First name').fill('Erin');
    await page.getByLabel('Last name').fill('Tester');
    await page.getByLabel('Phone').fill('(202) 555-0143');
    // More than 8 characters of a real US address: the embedded provider answers from the ZIP data.
    await page
      .getByRole('combobox', { name: 'Street address' })
      .pressSequentially('1600 Pennsylvania Ave NW, Washington DC');
    const suggestion = page.getByRole('option', { name: /^1600 Pennsylvania Ave NW, Washington, DC/ }).first();
    await suggestion.click();
    expect(await page.getByRole('combobox', { name: 'Street address' }).inputValue()).toBe('1600 Pennsylvania Ave NW');
    expect(await page.getByLabel('City').inputValue()).toBe('Washington');
    expect(await page.getByLabel('State').inputValue()).toBe('DC');
    expect(await page.getByLabel('ZIP code').inputValue()).toMatch(/^20\d{3}$/);

    // Stripe's test date of birth that verifies (1901-01-01; the list offers 1900-1902 in test mode
    // only): any other date fails Stripe's test-mode check, and the account would need attention.
    await page.getByLabel('Month').selectOption('1');
    await page.getByLabel('Year').selectOption('1901');
    await page.getByLabel('Day').selectOption('1');
    await page.getByLabel('Social Security number or ITIN').pressSequentially('000000000');
    expect(await page.getByLabel('Social Security number or ITIN').inputValue()).toBe('000-00-0000');
    await page.getByRole('checkbox', { name: /I agree to the/ }).check();
    await expectAccessible(page);
    await session.screenshot('payout-create-390');
    await page.getByRole('button', { name: 'Create Payout Account' }).click();

    await page.waitForURL(at('/my_account/payout_methods'));
    await page.getByText('Your payout account is created. Now add a debit card to get paid.').waitFor();
    // Only the card is left: the badge says so at once, without a reload.
    expect(await page.getByTestId('attention-badge').textContent()).toBe('Action needed: Add a debit card.');
  });

  it('refuses a credit card in red, then adds a debit card and shows it; the badges are gone', async () => {
    const { page } = session;
    const number = page.getByLabel('Card number');
    await number.pressSequentially('4242424242424242');
    expect(await number.inputValue()).toBe('4242 4242 4242 4242');
    await page.getByLabel('Expiry').pressSequentially('1234');
    await page.getByLabel('CVC').fill('123');
    await page.getByLabel('ZIP').fill('20500');
    await page.getByRole('button', { name: 'Add debit card' }).click();
    const refused = page.locator('.field__error', { hasText: DEBIT_REFUSED });
    await refused.waitFor();
    expect(await refused.evaluate((element) => getComputedStyle(element).color)).toBe('rgb(180, 35, 24)');
    expect(await page.getByTestId('payout-card').count()).toBe(0);
    await session.screenshot('payout-credit-refused-390');

    await number.fill('4000 0566 5566 5556');
    await page.getByRole('button', { name: 'Add debit card' }).click();
    const card = page.getByTestId('payout-card');
    await card.waitFor();
    expect(await card.getAttribute('aria-label')).toBe('Visa debit card ending in 5556');
    expect(await page.getByTestId('attention-badge').count()).toBe(0);
    await expectAccessible(page);
    await session.screenshot('payout-card-390');

    // The card is the account's at the emulator: a reload reads it back through getExternalAccounts.
    await page.reload();
    await page.getByTestId('payout-card').waitFor();
    await page.goto(at('/my_account'));
    await page.getByRole('heading', { level: 1, name: 'My Account' }).waitFor();
    expect(await page.getByTestId('todo-payout-account').count()).toBe(0);
    expect(await page.getByTestId('todo-payout-methods').count()).toBe(0);
    expect(await page.getByTestId('attention-badge').count()).toBe(0);
  });
});
