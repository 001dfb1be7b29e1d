import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppShell, type MenuItem } from './AppShell';
import { initialsFromEmail } from './Avatar';
import { LoginScreen } from './LoginScreen';
import { pageNavigation } from './navigation';
import {
  authAnswer,
  deferred,
  fakeApi,
  renderWithAuth,
  unauthorized,
  Where,
  type FakeApi,
  type FakeReply,
} from '../../../test/testing';

let assign: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  assign = vi.spyOn(pageNavigation, 'assign').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const memberMenu = (): MenuItem[] => [
  { to: '/my_account', label: 'My Account' },
  { to: '/', label: 'Product List', end: true },
];

function renderShell(options: { api: FakeApi; app?: 'member' | 'admin'; path?: string }) {
  const { api, app = 'member', path = '/' } = options;
  const basename = app === 'admin' ? '/admin' : undefined;
  const entry = app === 'admin' ? `/admin${path === '/' ? '/' : path}` : path;
  return renderWithAuth(
    <>
      <Routes>
        <Route element={<AppShell app={app} menu={memberMenu} publicPaths={app === 'member' ? ['/login'] : []} />}>
          <Route index element={<h1>Home screen</h1>} />
          <Route path="my_account" element={<h1>Account screen</h1>} />
          <Route path="orders" element={<h1>Orders screen</h1>} />
          <Route path="login" element={<LoginScreen />} />
        </Route>
      </Routes>
      <Where />
    </>,
    api,
    { path: entry, basename },
  );
}

/** A server with a session cookie: checkAuth answers until logout clears it. */
function loggedIn(overrides: Parameters<typeof authAnswer>[0] = {}): FakeApi {
  let session = true;
  return fakeApi({
    checkAuth: () => (session ? { body: authAnswer(overrides) } : unauthorized),
    logout: () => {
      session = false;
      return { body: { ok: true } };
    },
  });
}

describe('auth check when a screen opens', () => {
  it('shows a loading state until the first answer, then the screen', async () => {
    const gate = deferred<FakeReply>();
    const api = fakeApi({ checkAuth: () => gate.promise });
    renderShell({ api });
    expect(screen.getByRole('status').textContent).toMatch(/Checking your session/);
    await act(async () => gate.resolve({ body: authAnswer() }));
    expect(await screen.findByRole('heading', { name: 'Home screen' })).toBeTruthy();
    expect(api.callsTo('checkAuth')[0]?.body).toEqual({});
  });

  it('sends a logged-out person to /login on a 401', async () => {
    const api = fakeApi({ checkAuth: () => unauthorized });
    renderShell({ api, path: '/my_account' });
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/login'));
    expect(screen.getByRole('link', { name: 'Login / Signup' })).toBeTruthy();
  });

  it('in the admin app sends a logged-out person to the member app’s /login', async () => {
    const api = fakeApi({ checkAuth: () => unauthorized });
    renderShell({ api, app: 'admin', path: '/orders' });
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/login'));
  });

  it('shows an error banner with Retry on a network failure instead of logging out', async () => {
    let fail = true;
    const api = fakeApi({ checkAuth: () => (fail ? { networkError: true } : { body: authAnswer() }) });
    renderShell({ api, path: '/my_account' });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/Network Error/);
    // Nothing else is on the screen: the banner's title is the page's heading.
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('We could not check your session');
    expect(screen.getByTestId('where').textContent).toBe('/my_account');
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Account screen' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('runs the check again on every route change, never two at once', async () => {
    const gates: ReturnType<typeof deferred<FakeReply>>[] = [];
    const api = fakeApi({
      checkAuth: () => {
        const gate = deferred<FakeReply>();
        gates.push(gate);
        return gate.promise;
      },
    });
    const { store } = renderShell({ api });
    // Many screens asking at once share the one request in flight.
    void store.checkAuth({ force: true });
    void store.checkAuth({ force: true });
    expect(api.callsTo('checkAuth')).toHaveLength(1);
    await act(async () => gates[0]?.resolve({ body: authAnswer() }));
    await screen.findByRole('heading', { name: 'Home screen' });

    vi.spyOn(Date, 'now').mockReturnValue(Date.now() + 60_000);
    await userEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    await userEvent.click(screen.getByRole('link', { name: 'My Account' }));
    await waitFor(() => expect(api.callsTo('checkAuth')).toHaveLength(2));
    await act(async () => gates[1]?.resolve({ body: authAnswer() }));
    expect(await screen.findByRole('heading', { name: 'Account screen' })).toBeTruthy();
  });
});

describe('drawer', () => {
  it('opens from the menu button, moves focus in, and the close button closes it and restores focus', async () => {
    const user = userEvent.setup();
    renderShell({ api: loggedIn() });
    const menuButton = await screen.findByRole('button', { name: 'Open menu' });
    expect(menuButton.getAttribute('aria-expanded')).toBe('false');
    await user.click(menuButton);
    const dialog = screen.getByRole('dialog', { name: 'Menu' });
    expect(menuButton.getAttribute('aria-expanded')).toBe('true');
    expect(dialog.contains(document.activeElement)).toBe(true);
    expect(screen.getByRole('button', { name: 'Close menu' })).toBe(document.activeElement);
    await user.click(screen.getByRole('button', { name: 'Close menu' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(menuButton);
  });

  it('closes on Escape and on the backdrop', async () => {
    const user = userEvent.setup();
    renderShell({ api: loggedIn() });
    await user.click(await screen.findByRole('button', { name: 'Open menu' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Open menu' }));
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    await user.click(screen.getByTestId('drawer-backdrop'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('keeps Tab inside the drawer', async () => {
    const user = userEvent.setup();
    renderShell({ api: loggedIn() });
    await user.click(await screen.findByRole('button', { name: 'Open menu' }));
    const dialog = screen.getByRole('dialog');
    for (let i = 0; i < 8; i += 1) {
      await user.tab();
      expect(dialog.contains(document.activeElement)).toBe(true);
    }
  });

  it('shows an avatar with initials from the e-mail and the menu items', async () => {
    renderShell({ api: loggedIn({ email: 'ann.lee@example.com' }) });
    await userEvent.click(await screen.findByRole('button', { name: 'Open menu' }));
    expect(screen.getByTestId('avatar').textContent).toBe('AL');
    expect(screen.getByRole('link', { name: 'My Account' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Product List' }).getAttribute('aria-current')).toBe('page');
    expect(initialsFromEmail('admin@example.com')).toBe('A');
    expect(initialsFromEmail('')).toBe('?');
  });

  it('shows the e-mail address whole, on one line, with the full address in its title', async () => {
    const email = 'a.long.name@subdomain.example-company.com';
    renderShell({ api: loggedIn({ email }) });
    await userEvent.click(await screen.findByRole('button', { name: 'Open menu' }));
    const shown = screen.getByTestId('drawer-email');
    expect(shown.textContent).toBe(email);
    expect(shown.getAttribute('title')).toBe(email);
    // No break chances inside the address.
    expect(shown.innerHTML).toBe(email);
  });

  it('closes when a menu item is chosen', async () => {
    const user = userEvent.setup();
    renderShell({ api: loggedIn() });
    await user.click(await screen.findByRole('button', { name: 'Open menu' }));
    await user.click(screen.getByRole('link', { name: 'My Account' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(await screen.findByRole('heading', { name: 'Account screen' })).toBeTruthy();
  });
});

describe('Admin Mode switch', () => {
  it('is not there for a member', async () => {
    renderShell({ api: loggedIn({ isAdmin: false }) });
    await userEvent.click(await screen.findByRole('button', { name: 'Open menu' }));
    expect(screen.queryByRole('switch', { name: 'Admin Mode' })).toBeNull();
  });

  it('is there for an admin, off in the member app, and turning it on loads /admin/', async () => {
    const user = userEvent.setup();
    renderShell({ api: loggedIn({ isAdmin: true }) });
    await user.click(await screen.findByRole('button', { name: 'Open menu' }));
    const toggle = screen.getByRole('switch', { name: 'Admin Mode' }) as HTMLInputElement;
    expect(toggle.checked).toBe(false);
    await user.click(toggle);
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/admin/'));
  });

  it('is on in the admin app, and turning it off loads /member', async () => {
    const user = userEvent.setup();
    renderShell({ api: loggedIn({ isAdmin: true }), app: 'admin', path: '/orders' });
    await user.click(await screen.findByRole('button', { name: 'Open menu' }));
    const toggle = screen.getByRole('switch', { name: 'Admin Mode' }) as HTMLInputElement;
    expect(toggle.checked).toBe(true);
    expect(screen.getByTestId('topbar-title').textContent).toBe('Admin');
    // Keyboard: from the close button, Tab reaches the switch and Space flips it.
    await user.tab();
    expect(document.activeElement).toBe(toggle);
    await user.keyboard(' ');
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/member'));
  });

  it('waits for a check in flight before leaving the page (the refresh cookie rotates)', async () => {
    const user = userEvent.setup();
    const api = loggedIn({ isAdmin: true });
    const { store } = renderShell({ api });
    await user.click(await screen.findByRole('button', { name: 'Open menu' }));
    const gate = deferred<FakeReply>();
    api.on('checkAuth', () => gate.promise);
    void store.checkAuth({ force: true });
    await user.click(screen.getByRole('switch', { name: 'Admin Mode' }));
    expect(assign).not.toHaveBeenCalled();
    await act(async () => gate.resolve({ body: authAnswer({ isAdmin: true }) }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/admin/'));
  });
});

describe('admin app for a member', () => {
  it('does not show admin screens', async () => {
    renderShell({ api: loggedIn({ isAdmin: false }), app: 'admin', path: '/' });
    expect(await screen.findByRole('heading', { name: 'Administrators only' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Home screen' })).toBeNull();
  });
});

describe('log out', () => {
  it('calls logout with {}, clears the session and goes to /login', async () => {
    const user = userEvent.setup();
    const api = loggedIn();
    renderShell({ api });
    await user.click(await screen.findByRole('button', { name: 'Open menu' }));
    await user.click(screen.getByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/login'));
    expect(api.callsTo('logout')[0]?.body).toEqual({});
    expect(api.callsTo('logout')[0]?.authorization).toBe('Bearer access-1');
    expect(screen.getByRole('link', { name: 'Login / Signup' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Open menu' })).toBeNull();
  });

  it('tells the person when logging out failed and keeps them logged in', async () => {
    const user = userEvent.setup();
    const api = loggedIn();
    api.on('logout', () => ({ networkError: true }));
    renderShell({ api });
    await user.click(await screen.findByRole('button', { name: 'Open menu' }));
    await user.click(screen.getByRole('button', { name: 'Log out' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/still logged in: Network Error/);
    expect(screen.getByTestId('where').textContent).toBe('/');
  });
});
