import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { pageNavigation } from '@portal/shared/ui/components/navigation';
import { authAnswer, fakeApi, renderWithAuth, unauthorized, type FakeApi } from '@portal/shared/test/testing';
import { AdminApp } from './AdminApp';
import { preloadLazyScreens } from './screens/routeScreens';

// Every screen is a chunk of its own: loaded once here, so that no test waits on a first import.
beforeAll(preloadLazyScreens, 60_000);

let assign: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  assign = vi.spyOn(pageNavigation, 'assign').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function renderAdmin(api: FakeApi, path = '/admin/') {
  renderWithAuth(<AdminApp />, api, { path, basename: '/admin' });
}

const admin = () =>
  fakeApi({
    checkAuth: () => ({ body: authAnswer({ isAdmin: true, email: 'admin@example.com' }) }),
    getUnApprovedProducts: () => ({ body: { items: [], nextCursor: null } }),
    getOrders: () => ({
      body: { items: [], nextCursor: null, counters: { all: 0, notOrdered: 0, notShipped: 0, notFulfilled: 0 } },
    }),
    getCommisions: () => ({ body: { items: [], nextCursor: null, totals: { paid: 0, processing: 0, count: 0 } } }),
  });

describe('admin app', () => {
  it('shows the admin home with links to the three sections and the title Admin', async () => {
    renderAdmin(admin());
    expect(await screen.findByRole('heading', { level: 1, name: 'Admin' })).toBeTruthy();
    expect(screen.getByTestId('topbar-title').textContent).toBe('Admin');
    const sections = within(screen.getByRole('navigation', { name: 'Admin sections' }));
    expect(sections.getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual([
      '/admin/product_import',
      '/admin/catalogue',
      '/admin/orders',
      '/admin/payouts',
    ]);
  });

  it('has the admin-mode menu and the switch on', async () => {
    renderAdmin(admin());
    await userEvent.click(await screen.findByRole('button', { name: 'Open menu' }));
    const nav = within(screen.getByRole('navigation', { name: 'Main menu' }));
    expect(nav.getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Product Import', '/admin/product_import'],
      ['Catalogue', '/admin/catalogue'],
      ['Orders', '/admin/orders'],
      ['Payouts', '/admin/payouts'],
      ['Commission rules', '/admin/rules'],
      ['Discount codes', '/admin/discount_codes'],
      ['Link statistics', '/admin/link_statistics'],
      ['Reconciliation', '/admin/reconciliation'],
    ]);
    expect((screen.getByRole('switch', { name: 'Admin Mode' }) as HTMLInputElement).checked).toBe(true);
  });

  it('does not ask an admin who has not chosen to sell to set up payouts: no red badge, no set-up box', async () => {
    renderAdmin(
      fakeApi({
        checkAuth: () => ({ body: authAnswer({ isAdmin: true, isAccountCreated: 0, isPayoutMethodAdded: 0 }) }),
      }),
    );
    const button = await screen.findByRole('button', { name: 'Open menu', description: '' });
    expect(screen.queryByTestId('attention-badge')).toBeNull();
    await userEvent.click(button);
    expect(screen.queryByRole('link', { name: /Finish your payout set-up/ })).toBeNull();
  });

  it('offers the rest of the set-up in the drawer to an admin who started selling (payout account made)', async () => {
    renderAdmin(
      fakeApi({
        checkAuth: () => ({ body: authAnswer({ isAdmin: true, isAccountCreated: 1, isPayoutMethodAdded: 0 }) }),
      }),
    );
    // The admin app is for running the shop: its top bar carries no payout reminder.
    const button = await screen.findByRole('button', { name: 'Open menu', description: '' });
    expect(screen.queryByTestId('attention-badge')).toBeNull();
    await userEvent.click(button);
    const drawer = within(screen.getByRole('dialog', { name: 'Menu' }));
    // The admin menu has no My Account: the reasons are a link of their own, to the member app's.
    const setup = drawer.getByRole('link', { name: /^Finish your payout set-up/ });
    expect(setup.getAttribute('href')).toBe('/my_account');
    expect(within(setup).getByText('Add a debit card')).toBeTruthy();
    expect(within(setup).queryByText('Create your payout account')).toBeNull();
  });

  it('shows no badge and no set-up link to an admin who has finished the payout set-up', async () => {
    renderAdmin(
      fakeApi({
        checkAuth: () => ({ body: authAnswer({ isAdmin: true, isAccountCreated: 1, isPayoutMethodAdded: 1 }) }),
      }),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Open menu', description: '' }));
    expect(screen.queryByTestId('attention-badge')).toBeNull();
    expect(screen.queryByRole('link', { name: /Finish your payout set-up/ })).toBeNull();
  });

  it.each([
    ['/admin/product_import', 'Product Import', 'No products are waiting for review.'],
    ['/admin/orders', 'Orders', 'No orders yet.'],
    ['/admin/payouts', 'Payouts', 'No commissions yet.'],
  ])('%s has its heading and empty state', async (path, heading, empty) => {
    renderAdmin(admin(), path);
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeTruthy();
    expect(await screen.findByText(empty)).toBeTruthy();
  });

  it('navigates between sections from the menu', async () => {
    const user = userEvent.setup();
    renderAdmin(admin());
    await user.click(await screen.findByRole('button', { name: 'Open menu' }));
    await user.click(screen.getByRole('link', { name: 'Orders' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Orders' })).toBeTruthy();
  });

  it('turning Admin Mode off loads the member app', async () => {
    const user = userEvent.setup();
    renderAdmin(admin(), '/admin/orders');
    await user.click(await screen.findByRole('button', { name: 'Open menu' }));
    await user.click(screen.getByRole('switch', { name: 'Admin Mode' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/member'));
  });

  it('does not show admin screens to a member', async () => {
    renderAdmin(fakeApi({ checkAuth: () => ({ body: authAnswer({ isAdmin: false }) }) }), '/admin/orders');
    expect(await screen.findByRole('heading', { name: 'Administrators only' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Orders' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    expect(screen.queryByRole('switch')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Orders' })).toBeNull();
  });

  it('logging out loads the member app’s /login once (a second load would abort the first)', async () => {
    const api = admin();
    api.on('logout', () => ({ body: { ok: true } }));
    renderAdmin(api);
    await userEvent.click(await screen.findByRole('button', { name: 'Open menu' }));
    await userEvent.click(screen.getByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/login'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(assign.mock.calls.filter((call: unknown[]) => call[0] === '/login')).toHaveLength(1);
  });

  it('sends a logged-out person to the member app’s /login', async () => {
    renderAdmin(fakeApi({ checkAuth: () => unauthorized }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/login'));
    expect(screen.queryByRole('heading', { name: 'Admin' })).toBeNull();
  });

  it('shows a not-found screen with a link to the admin home', async () => {
    renderAdmin(admin(), '/admin/nope');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the admin home' }).getAttribute('href')).toBe('/admin');
  });
});
