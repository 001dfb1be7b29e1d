import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { productCard } from '@portal/shared/test/catalogueTesting';
import {
  authAnswer,
  deferred,
  fakeApi,
  renderWithAuth,
  unauthorized,
  Where,
  type FakeApi,
  type FakeReply,
} from '@portal/shared/test/testing';
import { commission, commissionPage } from './screens/commissions/testing';
import { emptyLinkStatistics } from '@portal/shared/test/linkStatisticsTesting';
import { MemberApp } from './MemberApp';
import { preloadLazyScreens } from './screens/lazyScreens';

// The route screens are lazy chunks; loaded once here, so no test waits on a first import.
beforeAll(preloadLazyScreens, 60_000);

afterEach(cleanup);

function renderMember(api: FakeApi, path = '/') {
  renderWithAuth(
    <>
      <MemberApp />
      <Where />
    </>,
    api,
    { path },
  );
}

const member = (flags: { isAccountCreated?: 0 | 1; isPayoutMethodAdded?: 0 | 1; isAdmin?: boolean } = {}) =>
  fakeApi({
    checkAuth: () => ({ body: authAnswer(flags) }),
    getApprovedProducts: () => ({ body: { items: [], nextCursor: null } }),
    getMyLinkStatistics: () => ({ body: emptyLinkStatistics() }),
  });

describe('member app', () => {
  it('shows the product list with an honest empty state at /', async () => {
    renderMember(member({ isAccountCreated: 1, isPayoutMethodAdded: 1 }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Product List' })).toBeTruthy();
    expect(await screen.findByText('No products are available yet.')).toBeTruthy();
    expect(screen.getByTestId('topbar-title').textContent).toBe('Member');
    expect(screen.getByRole('banner')).toBeTruthy();
    expect(screen.getByRole('main')).toBeTruthy();
  });

  it.each([
    [{ isAccountCreated: 0, isPayoutMethodAdded: 0 }, true],
    [{ isAccountCreated: 0, isPayoutMethodAdded: 1 }, true],
    [{ isAccountCreated: 1, isPayoutMethodAdded: 0 }, true],
    [{ isAccountCreated: 1, isPayoutMethodAdded: 1 }, false],
  ] as const)('with %o the red badges show: %s, each saying why', async (flags, shown) => {
    renderMember(member(flags));
    await screen.findByRole('heading', { name: 'Product List' });
    expect(screen.queryByTestId('attention-badge') !== null).toBe(shown);
    const reasons = [
      ...(flags.isAccountCreated ? [] : ['Create your payout account']),
      ...(flags.isPayoutMethodAdded ? [] : ['Add a debit card']),
    ];
    // The menu button is described by the reasons.
    const menuButton = screen.getByRole('button', {
      name: 'Open menu',
      description: shown ? `Action needed: ${reasons.map((reason) => `${reason}.`).join(' ')}` : '',
    });
    await userEvent.click(menuButton);
    const myAccount = within(screen.getByRole('dialog')).getByRole('link', { name: /My Account/ });
    expect(myAccount.getAttribute('href')).toBe('/my_account');
    expect(within(myAccount).queryByTestId('menu-item-badge') !== null).toBe(shown);
    if (shown) {
      // The item shows the reasons in words, and they are part of its name.
      expect(Array.from(myAccount.querySelectorAll('.badge-words__item'), (item) => item.textContent)).toEqual(reasons);
      expect(myAccount).toBe(screen.getByRole('link', { name: `My Account, action needed: ${reasons.join(', ')}` }));
    }
  });

  it('the product list shows its first screenful alone until a first picture has loaded, then every card', async () => {
    const items = Array.from({ length: 10 }, (_, index) =>
      productCard({
        id: `p-${index + 1}`,
        product_name: `Product ${index + 1}`,
        image: `https://img.example.test/${index + 1}.jpg`,
      }),
    );
    renderMember(
      fakeApi({
        checkAuth: () => ({ body: authAnswer({ isAccountCreated: 1, isPayoutMethodAdded: 1 }) }),
        getApprovedProducts: () => ({ body: { items, nextCursor: null } }),
      }),
    );
    await screen.findByText('Product 1');
    const cards = () => screen.getAllByTestId('product-card');
    const pictures = () =>
      Array.from(document.querySelectorAll<HTMLImageElement>('.product-grid img')).map((image) => [
        image.getAttribute('src'),
        image.getAttribute('fetchpriority'),
      ]);
    // The four cards a phone shows first, their pictures at high priority; nothing below them yet.
    expect(cards()).toHaveLength(4);
    expect(pictures()).toEqual(items.slice(0, 4).map((item) => [item.image, 'high']));
    expect(screen.getByRole('list').getAttribute('aria-busy')).toBe('true');
    // One of them loaded (and, without Element Timing here, a frame later): the rest of the page.
    fireEvent.load(document.querySelector('.product-grid img')!);
    await waitFor(() => expect(cards()).toHaveLength(10));
    expect(pictures().slice(4)).toEqual(items.slice(4).map((item) => [item.image, null]));
    expect(screen.getByRole('list').getAttribute('aria-busy')).toBe('false');
  });

  it('the product list’s payout callout names only the steps still to do', async () => {
    renderMember(member({ isAccountCreated: 1, isPayoutMethodAdded: 0 }));
    const callout = await screen.findByRole('region', { name: 'Finish setting up your payouts' });
    const steps = within(callout).getByTestId('payout-setup-steps');
    expect(Array.from(steps.querySelectorAll('.badge-words__item'), (item) => item.textContent)).toEqual([
      'Add a debit card',
    ]);
    expect(within(callout).getByRole('link', { name: 'Go to My Account' }).getAttribute('href')).toBe('/my_account');
  });

  it('has the member menu: My Account, Product List and Log out', async () => {
    renderMember(member());
    await userEvent.click(await screen.findByRole('button', { name: 'Open menu' }));
    const nav = within(screen.getByRole('navigation', { name: 'Main menu' }));
    const label = (link: HTMLElement) => link.querySelector('.nav-link__label')?.textContent;
    expect(nav.getAllByRole('link').map((link) => [label(link), link.getAttribute('href')])).toEqual([
      ['My Account', '/my_account'],
      ['Product List', '/'],
    ]);
    expect(screen.getByRole('button', { name: 'Log out' })).toBeTruthy();
  });

  it('redirects /member to /', async () => {
    renderMember(member(), '/member');
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/'));
    expect(await screen.findByRole('heading', { name: 'Product List' })).toBeTruthy();
  });

  it('shows My Account with its three links, the red badge where a step is left, and an empty state', async () => {
    const api = member({ isAccountCreated: 1, isPayoutMethodAdded: 0 });
    api.on('getCommisionsByUser', () => ({ body: commissionPage() }));
    renderMember(api, '/my_account');
    expect(await screen.findByRole('heading', { level: 1, name: 'My Account' })).toBeTruthy();
    const links = within(screen.getByRole('navigation', { name: 'My account' })).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/my_account/payout_account',
      '/my_account/payout_methods',
      '/my_account/my_profile',
    ]);
    expect(screen.getByRole('link', { name: /^Back/ }).getAttribute('href')).toBe('/');
    expect(screen.queryByTestId('todo-payout-account')).toBeNull();
    const todo = screen.getByTestId('todo-payout-methods');
    expect(within(todo).getByText('Add a debit card').closest('[aria-hidden]')).toBe(todo.lastElementChild);
    expect(todo.querySelector('.visually-hidden')?.textContent).toBe(', action needed: Add a debit card');
    expect(screen.queryByText('Create your payout account')).toBeNull();
    expect(await screen.findByText('No commissions yet.')).toBeTruthy();
    expect(screen.getByTestId('commissions-paid').textContent).toBe('$0.00');
  });

  it("shows My Account's link statistics, or in words that no visit was counted yet", async () => {
    const api = member({ isAccountCreated: 1, isPayoutMethodAdded: 1 });
    api.on('getCommisionsByUser', () => ({ body: commissionPage() }));
    renderMember(api, '/my_account');
    expect(await screen.findByRole('heading', { level: 2, name: 'Your links' })).toBeTruthy();
    expect(await screen.findByText('No visits yet.')).toBeTruthy();
    const stats = emptyLinkStatistics();
    stats.total.visits[89] = 12;
    stats.total.sales[89] = 1;
    stats.total.earningsCents[89] = 242;
    api.on('getMyLinkStatistics', () => ({ body: stats }));
    cleanup();
    renderMember(api, '/my_account');
    expect(await screen.findByRole('img', { name: 'Visits by day, Sep 4 to Dec 2' })).toBeTruthy();
    const totals = screen.getByLabelText('The last 90 days');
    expect(within(totals).getByText('Your earnings').nextSibling?.textContent).toBe('$2.42');
    expect(within(totals).getByText('Conversion').nextSibling?.textContent).toBe('8.3 %');
  });

  it('shows the commission totals of /my_account in dollars and cents, from getCommisionsByUser with the member’s id', async () => {
    const api = member({ isAccountCreated: 1, isPayoutMethodAdded: 1 });
    api.on('getCommisionsByUser', () => ({
      body: commissionPage([commission()], { paid: 1234.5, processing: 2.59, count: 7 }),
    }));
    renderMember(api, '/my_account');
    expect((await screen.findByTestId('commissions-paid')).textContent).toBe('$1,234.50');
    expect(screen.getByTestId('commissions-processing').textContent).toBe('$2.59');
    expect(screen.getByRole('heading', { name: 'Commissions You Made' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Commissions in Processing' })).toBeTruthy();
    expect(api.callsTo('getCommisionsByUser')[0]?.body).toMatchObject({ id: 'user-1' });
    expect(screen.queryByText('No commissions yet.')).toBeNull();
    expect(within(screen.getByRole('navigation', { name: 'My account' })).getAllByRole('link')).toHaveLength(3);
    expect(screen.getByRole('link', { name: /^Back/ }).getAttribute('href')).toBe('/');
  });

  it('says in words when the commissions could not be loaded, with Retry', async () => {
    const api = member({ isAccountCreated: 1 });
    api.on('getCommisionsByUser', () => ({ status: 500, body: { message: 'The server failed.' } }));
    renderMember(api, '/my_account');
    expect(await screen.findByText('Your commissions could not be loaded')).toBeTruthy();
    const section = screen.getByRole('region', { name: 'Commissions' });
    expect(within(section).getByRole('button', { name: /Retry/ })).toBeTruthy();
  });

  it('shows a not-found screen with a link home for unknown routes', async () => {
    renderMember(member(), '/no/such/page');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the home page' }).getAttribute('href')).toBe('/');
  });

  it('sends a logged-out person to /login', async () => {
    renderMember(fakeApi({ checkAuth: () => unauthorized }), '/my_account');
    expect(await screen.findByRole('heading', { level: 1, name: 'Log in' })).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/login');
    expect(screen.getByRole('link', { name: 'Login / Signup' }).getAttribute('href')).toBe('/login');
  });

  it('lets a logged-out person reach /signup', async () => {
    renderMember(fakeApi({ checkAuth: () => unauthorized }), '/signup');
    await waitFor(() => expect(screen.getByRole('link', { name: 'Login / Signup' })).toBeTruthy());
    expect(screen.getByTestId('where').textContent).toBe('/signup');
    expect(await screen.findByRole('button', { name: 'Sign up' })).toBeTruthy();
  });

  it('logs in and lands on the product list', async () => {
    const api = fakeApi({
      checkAuth: () => unauthorized,
      login: () => ({ body: authAnswer() }),
      getApprovedProducts: () => ({ body: { items: [], nextCursor: null } }),
    });
    renderMember(api, '/login');
    await userEvent.type(await screen.findByLabelText('Email'), 'ann@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'secret-password');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('heading', { name: 'Product List' })).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/');
  });

  it('logging out forgets the cached products: the next account never sees them', async () => {
    const user = userEvent.setup();
    let session: 'ann' | 'bo' | null = 'ann';
    const bosList = deferred<FakeReply>();
    const api = fakeApi({
      checkAuth: () => {
        if (session === 'ann') return { body: authAnswer({ isAccountCreated: 1, isPayoutMethodAdded: 1 }) };
        if (session === 'bo') return { body: authAnswer(BO, 'access-bo') };
        return unauthorized;
      },
      logout: () => {
        session = null;
        return { body: { ok: true } };
      },
      login: () => {
        session = 'bo';
        return { body: authAnswer(BO, 'access-bo') };
      },
      getApprovedProducts: ({ authorization }) =>
        authorization === 'Bearer access-bo'
          ? bosList.promise
          : { body: { items: [productCard({ product_name: 'Ann’s Socks' })], nextCursor: null } },
    });
    renderMember(api);
    expect(await screen.findByText('Ann’s Socks')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    await user.click(screen.getByRole('button', { name: 'Log out' }));
    await user.type(await screen.findByLabelText('Email'), 'bo@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret-password');
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    // Bo's list is still on its way: the screen waits for it rather than showing Ann's.
    expect(await screen.findByText('Loading products…')).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/');
    expect(screen.queryByText('Ann’s Socks')).toBeNull();
    bosList.resolve({ body: { items: [productCard({ id: 'p-9', product_name: 'Bo’s Lamp' })], nextCursor: null } });
    expect(await screen.findByText('Bo’s Lamp')).toBeTruthy();
    expect(screen.queryByText('Ann’s Socks')).toBeNull();
  });
});

const BO = { id: 'user-2', email: 'bo@example.com', isAccountCreated: 1, isPayoutMethodAdded: 1 } as const;
