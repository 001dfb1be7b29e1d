import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { at, DESKTOP, expectAccessible, logIn, openBrowser, pageErrors, PHONE, type BrowserSession } from './browser';

/**
 * The walking skeleton in a real browser against the started portal (one origin: both apps and
 * /api): sign-up, the red badge, the drawer, log out and in, a refused password, the session
 * surviving a reload, and an admin moving between the member and admin apps. Every screen opened
 * passes axe-core's checks (expectAccessible) once it has settled.
 */

const accounts = inject('accounts');

async function openMenu(page: Page) {
  await page.getByRole('button', { name: 'Open menu' }).click();
  const drawer = page.getByRole('dialog', { name: 'Menu' });
  await drawer.waitFor();
  return drawer;
}

const title = (page: Page) => page.getByTestId('topbar-title').textContent();

describe('member', () => {
  let session: BrowserSession;
  const email = `e2e-${randomUUID().slice(0, 8)}@example.com`;
  const password = 'e2e-member-password';

  beforeAll(async () => {
    session = await openBrowser({ viewport: DESKTOP });
  });

  afterAll(async () => {
    await session?.close();
  });

  it('a logged-out visitor is sent to /login and sees the Login / Signup button', async () => {
    const { page } = session;
    await page.goto(at('/'));
    await page.waitForURL(at('/login'));
    await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
    expect(await page.getByRole('link', { name: 'Login / Signup' }).getAttribute('href')).toBe('/login');
    expect(await page.getByRole('button', { name: 'Open menu' }).count()).toBe(0);
    await expectAccessible(page);
    await session.screenshot('login-desktop');
  });

  it('sign-up checks the fields with the shared messages', async () => {
    const { page } = session;
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL(at('/signup'));
    // The address changes before the sign-up screen's chunk is in; until then the login screen,
    // with its own Email and Password fields, is still what shows (a loaded run filled those).
    await page.getByRole('button', { name: 'Sign up' }).waitFor();
    await page.getByLabel('Email', { exact: true }).fill('not-an-email');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByText('The e-mail address must be a valid e-mail address.').waitFor();
    await page.getByText('The password must be at least 8 characters.').waitFor();
    await expectAccessible(page);
    await session.screenshot('signup-validation-desktop');
  });

  it('signs up a new member, who lands on / with the red badge and no Admin Mode switch', async () => {
    const { page } = session;
    await page.goto(at('/signup'));
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL(at('/'));
    await page.getByRole('heading', { level: 1, name: 'Product List' }).waitFor();
    // The portal is shared with the catalogue test: the list may be empty or already hold products.
    await page.getByText('No products are available yet.').or(page.getByTestId('product-card')).first().waitFor();
    expect(await title(page)).toBe('Member');

    // The red badge says why it is there: the menu button is described by the missing steps.
    const badge = page.getByTestId('attention-badge');
    await badge.waitFor();
    const why = 'Action needed: Create your payout account. Add a debit card.';
    expect(await badge.textContent()).toBe(why);
    const menuButton = page.getByRole('button', { name: 'Open menu' });
    expect(await menuButton.getAttribute('title')).toBe(why);
    const describedBy = await menuButton.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe(why);
    await expectAccessible(page);
    await session.screenshot('member-product-list-desktop');

    const drawer = await openMenu(page);
    const box = await drawer.boundingBox();
    expect(box?.width).toBe(200);
    expect(await drawer.getByRole('switch', { name: 'Admin Mode' }).count()).toBe(0);
    expect(await drawer.getByTestId('drawer-email').textContent()).toBe(email);
    const myAccount = drawer.getByRole('link', { name: /My Account/ });
    expect(await myAccount.getByTestId('menu-item-badge').count()).toBe(1);
    // …and the My Account item shows them in words.
    await myAccount.getByText('Create your payout account', { exact: true }).waitFor();
    await myAccount.getByText('Add a debit card', { exact: true }).waitFor();
    expect(await drawer.getByRole('link', { name: 'Product List' }).getAttribute('aria-current')).toBe('page');
    await expectAccessible(page);
    await session.screenshot('member-drawer-desktop', { fullPage: false });

    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Open menu');
  });

  it('keeps no token where page scripts can read it', async () => {
    const { page } = session;
    const stored = await page.evaluate(() => ({
      storage: localStorage.length + sessionStorage.length,
      cookie: document.cookie,
    }));
    expect(stored).toEqual({ storage: 0, cookie: '' });
  });

  it('stays logged in across a reload (the HttpOnly cookie refreshes the session)', async () => {
    const { page } = session;
    await page.goto(at('/my_account'));
    await page.getByRole('heading', { level: 1, name: 'My Account' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'My Account' }).waitFor();
    await page.getByRole('button', { name: 'Open menu' }).waitFor();
    expect(page.url()).toBe(at('/my_account'));
    await page.getByTestId('todo-payout-account').getByText('Create your payout account', { exact: true }).waitFor();
    await expectAccessible(page);
    await session.screenshot('member-my-account-desktop');
  });

  it('a network failure during the check shows an error banner with Retry, not a logout', async () => {
    const { page } = session;
    // The browser never sends the request, so the refresh cookie is not used up.
    await page.route('**/api/checkAuth', (route) => route.abort('internetdisconnected'));
    await page.reload();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/could not check your session.*Network Error/i);
    expect(page.url()).toBe(at('/my_account'));
    // The banner is all there is: its title is the page's heading.
    await page.getByRole('heading', { level: 1, name: 'We could not check your session' }).waitFor();
    await expectAccessible(page);
    await session.screenshot('session-check-failed-desktop');

    await page.unroute('**/api/checkAuth');
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('heading', { level: 1, name: 'My Account' }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  it('logs out from the drawer and logs in again', async () => {
    const { page } = session;
    const drawer = await openMenu(page);
    await drawer.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(at('/login'));
    await page.getByRole('link', { name: 'Login / Signup' }).waitFor();

    // The session is gone on the server too: a reload does not bring it back.
    await page.reload();
    await page.getByRole('link', { name: 'Login / Signup' }).waitFor();
    expect(page.url()).toBe(at('/login'));

    await logIn(page, { email, password });
    expect(await title(page)).toBe('Member');
  });

  it('a member who opens /admin/ directly is not shown admin screens', async () => {
    const { page } = session;
    await page.goto(at('/admin/'));
    await page.getByRole('heading', { level: 1, name: 'Administrators only' }).waitFor();
    expect(await page.getByRole('heading', { level: 1, name: 'Admin', exact: true }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Product Import' }).count()).toBe(0);
    const drawer = await openMenu(page);
    expect(await drawer.getByRole('switch').count()).toBe(0);
    expect(await drawer.getByRole('link', { name: 'Orders' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    await expectAccessible(page);
    await session.screenshot('admin-for-member-desktop');

    await page.goto(at('/admin/orders'));
    await page.getByRole('heading', { level: 1, name: 'Administrators only' }).waitFor();
    expect(await page.getByText('No orders yet.').count()).toBe(0);
  });

  it('a wrong password is refused with a message in words', async () => {
    const { page } = session;
    const drawer = await openMenu(page);
    await drawer.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(at('/login'));
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Log in' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect((await alert.textContent())?.trim()).toMatch(/password.*incorrect|incorrect.*password/i);
    expect(page.url()).toBe(at('/login'));
    await expectAccessible(page);
    await session.screenshot('login-refused-desktop');
    expect(pageErrors(session)).toEqual([]);
  });
});

describe('admin', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openBrowser({ viewport: DESKTOP });
  });

  afterAll(async () => {
    await session?.close();
  });

  it('switches Admin Mode on and off, replacing the page each time', async () => {
    const { page } = session;
    await logIn(page, accounts.admin);
    expect(await title(page)).toBe('Member');

    let drawer = await openMenu(page);
    const toggle = drawer.getByRole('switch', { name: 'Admin Mode' });
    expect(await toggle.isChecked()).toBe(false);
    await expectAccessible(page);
    await session.screenshot('admin-member-drawer-desktop', { fullPage: false });
    await toggle.click();
    await page.waitForURL(at('/admin/'));
    await page.getByRole('heading', { level: 1, name: 'Admin' }).waitFor();
    expect(await title(page)).toBe('Admin');
    await expectAccessible(page);
    await session.screenshot('admin-home-desktop');

    drawer = await openMenu(page);
    const menu = drawer.getByRole('navigation', { name: 'Main menu' }).getByRole('link');
    const items = await menu.evaluateAll((links) =>
      links.map((link) => [link.textContent, link.getAttribute('href')] as const),
    );
    expect(items).toEqual([
      ['Product Import', '/admin/product_import'],
      ['Catalogue', '/admin/catalogue'],
      ['Orders', '/admin/orders'],
      ['Payouts', '/admin/payouts'],
      ['Commission rules', '/admin/rules'],
      ['Discount codes', '/admin/discount_codes'],
      ['Link statistics', '/admin/link_statistics'],
      ['Reconciliation', '/admin/reconciliation'],
    ]);
    expect(await drawer.getByRole('switch', { name: 'Admin Mode' }).isChecked()).toBe(true);
    await expectAccessible(page);
    await session.screenshot('admin-drawer-desktop', { fullPage: false });

    await drawer.getByRole('link', { name: 'Product Import' }).click();
    await page.waitForURL(at('/admin/product_import'));
    await page.getByRole('heading', { name: 'Upload a supplier CSV' }).waitFor();
    await expectAccessible(page);
    await session.screenshot('admin-product-import-desktop');

    drawer = await openMenu(page);
    await drawer.getByRole('switch', { name: 'Admin Mode' }).click();
    await page.waitForURL(at('/'));
    await page.getByRole('heading', { level: 1, name: 'Product List' }).waitFor();
    expect(await title(page)).toBe('Member');
    expect(pageErrors(session)).toEqual([]);
  });

  it('stays logged in when the admin app is reloaded', async () => {
    const { page } = session;
    await page.goto(at('/admin/orders'));
    await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
    expect(await title(page)).toBe('Admin');
    await expectAccessible(page);
  });

  it('shows a not-found screen for an unknown admin route', async () => {
    const { page } = session;
    await page.goto(at('/admin/nowhere'));
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Go to the admin home' }).click();
    await page.waitForURL(/\/admin\/?$/);
    await page.getByRole('heading', { level: 1, name: 'Admin' }).waitFor();
  });
});

describe('phone layout (375px)', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openBrowser({ viewport: PHONE });
  });

  afterAll(async () => {
    await session?.close();
  });

  it('lays the screens out for a phone; below 500px the drawer takes the full width', async () => {
    const { page } = session;
    await page.goto(at('/login'));
    await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
    await expectAccessible(page);
    await session.screenshot('login-phone');

    await logIn(page, accounts.member);
    await expectAccessible(page);
    await session.screenshot('member-product-list-phone');
    const noSideScroll = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    expect(noSideScroll).toBe(true);

    const drawer = await openMenu(page);
    expect((await drawer.boundingBox())?.width).toBe(PHONE.width);
    await expectAccessible(page);
    await session.screenshot('member-drawer-phone', { fullPage: false });
    await drawer.getByRole('button', { name: 'Close menu' }).click();

    await page.goto(at('/my_account'));
    await page.getByRole('heading', { level: 1, name: 'My Account' }).waitFor();
    await expectAccessible(page);
    await session.screenshot('member-my-account-phone');

    await page.goto(at('/nowhere'));
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    await expectAccessible(page);
    await session.screenshot('not-found-phone');
  });

  it('admin screens on a phone', async () => {
    const { page } = session;
    const drawer = await openMenu(page);
    await drawer.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(at('/login'));
    await logIn(page, accounts.admin);
    await page.goto(at('/admin/'));
    await page.getByRole('heading', { level: 1, name: 'Admin' }).waitFor();
    await expectAccessible(page);
    await session.screenshot('admin-home-phone');
    await openMenu(page);
    await expectAccessible(page);
    await session.screenshot('admin-drawer-phone', { fullPage: false });
  });
});
