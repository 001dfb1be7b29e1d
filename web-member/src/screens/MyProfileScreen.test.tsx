import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  authAnswer,
  deferred,
  fakeApi,
  renderWithAuth,
  unauthorized,
  type FakeReply,
} from '@portal/shared/test/testing';
import { MemberApp } from '../MemberApp';
import { VERIFY_HINT } from './MyProfileScreen';
import { preloadLazyScreens } from './lazyScreens';

// The route screens are lazy chunks; loaded once here, so no test waits on a first import.
beforeAll(preloadLazyScreens, 60_000);

afterEach(() => cleanup());

const filled = {
  email: 'ann.lee@example.com',
  first_name: 'Ann',
  last_name: 'Lee',
  phone: '5551234567',
  street_address_1: '1 Main St',
  address_unit: '',
  city: 'Springfield',
  state: 'IL',
  zipcode: '62701',
};

function valueOf(label: string): HTMLElement {
  const term = screen.getByText(label, { selector: 'dt' });
  return term.nextElementSibling as HTMLElement;
}

describe('My Profile', () => {
  it('lists the profile as a definition list, an em dash for a value not given, with a Back link to My Account', async () => {
    const api = fakeApi({ checkAuth: () => ({ body: authAnswer({ ...filled, isEmailVerified: true }) }) });
    renderWithAuth(<MemberApp />, api, { path: '/my_account/my_profile' });
    expect(await screen.findByRole('heading', { level: 1, name: 'My Profile' })).toBeTruthy();
    expect(valueOf('Email').textContent).toContain('ann.lee@example.com');
    expect(valueOf('First name').textContent).toBe('Ann');
    expect(valueOf('Last name').textContent).toBe('Lee');
    expect(valueOf('Phone').textContent).toBe('5551234567');
    expect(valueOf('Street address').textContent).toBe('1 Main St');
    expect(valueOf('Address unit').textContent).toBe('—Not given');
    expect(within(valueOf('Address unit')).getByText('Not given').className).toBe('visually-hidden');
    expect(valueOf('City').textContent).toBe('Springfield');
    expect(valueOf('State').textContent).toBe('IL');
    expect(valueOf('Zipcode').textContent).toBe('62701');
    expect(screen.getByRole('link', { name: 'Back' }).getAttribute('href')).toBe('/my_account');
    expect(screen.queryByText(VERIFY_HINT)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Resend verification email' })).toBeNull();
  });

  it('while the e-mail is unverified: the hint with its warning icon, and Resend sends a link and says where', async () => {
    const user = userEvent.setup();
    const reply = deferred<FakeReply>();
    const api = fakeApi({
      checkAuth: () => ({ body: authAnswer(filled) }),
      verifyEmail: () => reply.promise,
    });
    renderWithAuth(<MemberApp />, api, { path: '/my_account/my_profile' });
    const hint = await screen.findByText(VERIFY_HINT);
    expect(hint.parentElement!.querySelector('svg')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Resend verification email' }));
    const sending = await screen.findByRole('button', { name: 'Sending…' });
    expect((sending as HTMLButtonElement).disabled).toBe(true);
    expect(api.callsTo('verifyEmail')).toHaveLength(1);
    expect(api.callsTo('verifyEmail')[0]!.body).toEqual({ action: 'send' });
    expect(api.callsTo('verifyEmail')[0]!.authorization).toBe('Bearer access-1');
    reply.resolve({ body: { sent: true, email: 'ann.lee@example.com', nextAllowedInSeconds: 60 } });
    expect(await screen.findByText('We sent a new link to ann.lee@example.com.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Resend verification email' }) as HTMLButtonElement).disabled).toBe(
      false,
    );
  });

  it("shows the server's refusal where it happened (429: when to ask again)", async () => {
    const user = userEvent.setup();
    const message =
      'We sent you a link a moment ago: check your inbox and spam folder. You can ask for another link in 42 seconds.';
    const api = fakeApi({
      checkAuth: () => ({ body: authAnswer(filled) }),
      verifyEmail: () => ({ status: 429, body: { message } }),
    });
    renderWithAuth(<MemberApp />, api, { path: '/my_account/my_profile' });
    await user.click(await screen.findByRole('button', { name: 'Resend verification email' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(message);
    expect(screen.queryByText(/We sent a new link/)).toBeNull();
  });
});

describe('the verification link (/verify_email)', () => {
  const token = 'A'.repeat(43);

  it('verifies once under StrictMode, without a session, and offers to log in and the catalogue', async () => {
    const api = fakeApi({
      checkAuth: () => unauthorized,
      verifyEmail: () => ({ body: { verified: true, email: 'ann.lee@example.com' } }),
    });
    renderWithAuth(
      <StrictMode>
        <MemberApp />
      </StrictMode>,
      api,
      { path: `/verify_email?token=${token}` },
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Your e-mail is verified' })).toBeTruthy();
    expect(api.callsTo('verifyEmail')).toEqual([{ name: 'verifyEmail', body: { token }, authorization: null }]);
    expect(screen.getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe('/login');
    expect(screen.getByRole('link', { name: 'Browse the catalogue' }).getAttribute('href')).toBe('/');
  });

  it('with a session: stays on the page, refreshes the profile, and My Profile then shows no hint', async () => {
    const user = userEvent.setup();
    let verified = false;
    const other = 'B'.repeat(43);
    const api = fakeApi({
      checkAuth: () => ({ body: authAnswer({ ...filled, isEmailVerified: verified }) }),
      verifyEmail: () => {
        verified = true;
        return { body: { verified: true, email: 'ann.lee@example.com' } };
      },
    });
    renderWithAuth(<MemberApp />, api, { path: `/verify_email?token=${other}` });
    expect(await screen.findByRole('heading', { level: 1, name: 'Your e-mail is verified' })).toBeTruthy();
    await user.click(await screen.findByRole('link', { name: 'Go to My Profile' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'My Profile' })).toBeTruthy();
    await waitFor(() => expect(screen.getByText('Verified')).toBeTruthy());
    expect(screen.queryByText(VERIFY_HINT)).toBeNull();
  });

  it("an expired or used link: the server's words, and the way to a new one", async () => {
    const api = fakeApi({
      checkAuth: () => unauthorized,
      verifyEmail: () => ({
        status: 400,
        body: { message: 'This link has expired — ask for a new one from My Profile.' },
      }),
    });
    renderWithAuth(<MemberApp />, api, { path: `/verify_email?token=${'C'.repeat(43)}` });
    expect((await screen.findByRole('alert')).textContent).toContain(
      'This link has expired — ask for a new one from My Profile.',
    );
    expect(screen.getByRole('link', { name: 'Log in to ask for a new link' })).toBeTruthy();
  });

  it('a link without a whole token is refused without calling the server', async () => {
    const api = fakeApi({ checkAuth: () => unauthorized });
    renderWithAuth(<MemberApp />, api, { path: '/verify_email?token=abc' });
    expect((await screen.findByRole('alert')).textContent).toContain('This verification link is not valid.');
    expect(api.callsTo('verifyEmail')).toEqual([]);
  });
});
