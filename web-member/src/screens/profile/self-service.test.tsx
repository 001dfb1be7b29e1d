import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADDRESS_INCOMPLETE, INVALID_RESET_LINK } from '@portal/shared/api/account';
import { productDetail } from '@portal/shared/test/catalogueTesting';
import {
  authAnswer,
  deferred,
  fakeApi,
  profile,
  renderWithAuth,
  unauthorized,
  Where,
  type FakeReply,
} from '@portal/shared/test/testing';
import { MemberApp } from '../../MemberApp';
import { PROFILE_SAVED } from '../MyProfileScreen';
import { PASSWORD_RESET_DONE } from '../ResetPasswordScreen';
import { LazyShopScreen, preloadLazyScreens } from '../lazyScreens';
import { cardReplacedNotice } from '../payouts/PayoutMethodsScreen';
import { PASSWORD_CHANGED } from './ChangePasswordForm';

beforeAll(async () => {
  await preloadLazyScreens();
  await LazyShopScreen.preload();
}, 60_000);

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const filled = {
  email: 'ann.lee@example.com',
  first_name: 'Ann',
  last_name: 'Lee',
  phone: '2175550142',
  street_address_1: '1 Main St',
  address_unit: '',
  city: 'Springfield',
  state: 'IL',
  zipcode: '62701',
  isEmailVerified: true,
};

const errorOf = (input: HTMLElement) => {
  const ids = (input.getAttribute('aria-describedby') ?? '').split(' ').filter((id) => id.endsWith('-error'));
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join('');
};

describe('My Profile: editing', () => {
  it('opens the form filled in, saves the display name, and shows it as customers will see it', async () => {
    const user = userEvent.setup();
    const api = fakeApi({
      checkAuth: () => ({ body: authAnswer(filled) }),
      updateProfile: ({ body }) => ({
        body: { userProfile: profile({ ...filled, ...(body as object), display_name: 'Ann the lamp fan' }) },
      }),
    });
    renderWithAuth(<MemberApp />, api, { path: '/my_account/my_profile' });
    // The default display name before one is chosen: first name and last initial.
    const list = await screen.findByRole('region', { name: 'Your details' });
    expect(within(list).getByText('Ann L.')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Edit profile' }));
    expect((screen.getByLabelText('First name') as HTMLInputElement).value).toBe('Ann');
    expect((screen.getByLabelText('Street address') as HTMLInputElement).value).toBe('1 Main St');
    const name = screen.getByLabelText('Display name (optional)');
    await user.type(name, 'Ann the lamp fan');
    expect(screen.getByText(/“Recommended by Ann the lamp fan”/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Save profile' }));

    expect(await screen.findByText(PROFILE_SAVED)).toBeTruthy();
    expect(api.callsTo('updateProfile')[0]?.body).toMatchObject({
      first_name: 'Ann',
      last_name: 'Lee',
      display_name: 'Ann the lamp fan',
      city: 'Springfield',
    });
    expect(within(screen.getByRole('region', { name: 'Your details' })).getByText('Ann the lamp fan')).toBeTruthy();
    // Back on the button that opened the form.
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Edit profile'));
  });

  it('says what is missing of a half address at each field, without calling the server', async () => {
    const user = userEvent.setup();
    const api = fakeApi({ checkAuth: () => ({ body: authAnswer(filled) }) });
    renderWithAuth(<MemberApp />, api, { path: '/my_account/my_profile' });
    await user.click(await screen.findByRole('button', { name: 'Edit profile' }));
    await user.clear(screen.getByLabelText('City'));
    await user.click(screen.getByRole('button', { name: 'Save profile' }));
    expect(errorOf(screen.getByLabelText('City'))).toBe(ADDRESS_INCOMPLETE);
    expect(document.activeElement).toBe(screen.getByLabelText('City'));
    expect(api.callsTo('updateProfile')).toHaveLength(0);
  });
});

describe('My Profile: a new e-mail address', () => {
  it('sends the link and says which address logs in until it is opened, and why a link may not come; a wrong password is said at its field', async () => {
    const user = userEvent.setup();
    const wrong = 'Your current password is not right. Type it again.';
    const reply = deferred<FakeReply>();
    const api = fakeApi({
      checkAuth: () => ({ body: authAnswer(filled) }),
      changeEmail: () => reply.promise,
    });
    renderWithAuth(<MemberApp />, api, { path: '/my_account/my_profile' });
    await user.click(await screen.findByRole('button', { name: 'Change e-mail address' }));
    await user.type(screen.getByLabelText('New e-mail address'), 'ann.new@example.com');
    await user.type(screen.getByLabelText('Your current password'), 'not my password');
    await user.click(screen.getByRole('button', { name: 'Send the link' }));
    reply.resolve({ status: 400, body: { message: wrong, fields: { password: wrong } } });
    await waitFor(() => expect(errorOf(screen.getByLabelText('Your current password'))).toBe(wrong));
    // Said once, at the field: no banner repeating it.
    expect(screen.queryByRole('alert')).toBeNull();

    api.on('changeEmail', () => ({
      body: { pendingEmail: 'ann.new@example.com', email: 'ann.lee@example.com', nextAllowedInSeconds: 60 },
    }));
    const field = screen.getByLabelText('New e-mail address');
    await user.clear(field);
    await user.type(field, 'Ann.New@example.com');
    const password = screen.getByLabelText('Your current password');
    await user.clear(password);
    await user.type(password, 'a long enough password');
    await user.click(screen.getByRole('button', { name: 'Send the link' }));
    const sent = await screen.findByRole('status');
    expect(sent.textContent).toContain('We mailed ann.new@example.com');
    expect(sent.textContent).toContain('until then you log in with ann.lee@example.com');
    // The answer is the same for an address another account holds: the words say why no link may come.
    expect(sent.textContent).toContain('its owner was told instead and no link was sent');
    expect(api.callsTo('changeEmail').at(-1)?.body).toEqual({
      email: 'Ann.New@example.com',
      password: 'a long enough password',
    });
  });
});

describe('My Profile: a new password', () => {
  it('shows a wrong current password at its field, then the change and that the other sessions ended', async () => {
    const user = userEvent.setup();
    const wrong = 'Your current password is not right. Type it again.';
    const api = fakeApi({
      checkAuth: () => ({ body: authAnswer(filled) }),
      changePassword: () => ({ status: 400, body: { message: wrong, fields: { currentPassword: wrong } } }),
    });
    renderWithAuth(<MemberApp />, api, { path: '/my_account/my_profile' });
    await user.click(await screen.findByRole('button', { name: 'Change password' }));
    await user.type(screen.getByLabelText('Current password'), 'not it at all');
    await user.type(screen.getByLabelText(/^New password/), 'short');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    // The sign-up's length rule, before any call.
    expect(errorOf(screen.getByLabelText(/^New password/))).toBe('The new password must be at least 8 characters.');
    expect(api.callsTo('changePassword')).toHaveLength(0);
    await user.type(screen.getByLabelText(/^New password/), ' and now long');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(errorOf(screen.getByLabelText('Current password'))).toBe(wrong));

    api.on('changePassword', () => ({ body: { ok: true, otherSessionsEnded: true } }));
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect((await screen.findByRole('status')).textContent).toBe(PASSWORD_CHANGED);
  });
});

describe('Forgot password', () => {
  it('is linked from the login page, and says what happens without saying whether the address has an account', async () => {
    const user = userEvent.setup();
    const api = fakeApi({
      checkAuth: () => unauthorized,
      requestPasswordReset: ({ body }) => ({
        body: { sent: true, email: (body as { email: string }).email.toLowerCase(), validMinutes: 60 },
      }),
    });
    renderWithAuth(<MemberApp />, api, { path: '/login' });
    await user.click(await screen.findByRole('link', { name: 'Forgot password?' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Forgot your password?' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Send me a link' }));
    expect(errorOf(screen.getByLabelText('Email'))).toBe('The e-mail address is required.');
    await user.type(screen.getByLabelText('Email'), 'Ann@Example.com');
    await user.click(screen.getByRole('button', { name: 'Send me a link' }));
    const done = await screen.findByRole('status');
    expect(done.textContent).toContain('If ann@example.com has an account, we sent it a link');
    expect(done.textContent).toContain('for 60 minutes');
    expect(api.callsTo('requestPasswordReset')).toEqual([
      { name: 'requestPasswordReset', body: { email: 'Ann@Example.com' }, authorization: null },
    ]);
  });
});

describe('The reset link (/reset_password)', () => {
  const token = 'R'.repeat(43);

  it('sets the new password and offers to log in', async () => {
    const user = userEvent.setup();
    const api = fakeApi({
      checkAuth: () => unauthorized,
      checkResetLink: () => ({ body: { ok: true } }),
      resetPassword: () => ({ body: { ok: true, email: 'ann.lee@example.com' } }),
    });
    renderWithAuth(
      <>
        <MemberApp />
        <Where />
      </>,
      api,
      { path: `/reset_password?token=${token}` },
    );
    await user.type(await screen.findByLabelText(/^New password/), 'a brand new passphrase');
    await user.click(screen.getByRole('button', { name: 'Set my new password' }));
    expect((await screen.findByRole('status')).textContent).toContain(PASSWORD_RESET_DONE);
    expect(api.callsTo('resetPassword')[0]?.body).toEqual({ token, password: 'a brand new passphrase' });
    await user.click(screen.getByRole('link', { name: 'Log in' }));
    expect(screen.getByTestId('where').textContent).toBe('/login');
  });

  it("an expired link: the server's words and the way to a new one; a cut link is refused without a call", async () => {
    const user = userEvent.setup();
    const expired = 'This password reset link has expired (links work for one hour). Ask for a new one.';
    const api = fakeApi({
      checkAuth: () => unauthorized,
      checkResetLink: () => ({ body: { ok: true } }),
      resetPassword: () => ({ status: 400, body: { message: expired, fields: { token: expired } } }),
    });
    renderWithAuth(<MemberApp />, api, { path: `/reset_password?token=${token}` });
    await user.type(await screen.findByLabelText(/^New password/), 'a brand new passphrase');
    await user.click(screen.getByRole('button', { name: 'Set my new password' }));
    expect((await screen.findByRole('alert')).textContent).toContain(expired);
    expect(screen.getByRole('link', { name: 'Ask for a new link' }).getAttribute('href')).toBe('/forgot_password');
    cleanup();

    const none = fakeApi({ checkAuth: () => unauthorized });
    renderWithAuth(<MemberApp />, none, { path: '/reset_password?token=abc' });
    expect((await screen.findByRole('alert')).textContent).toContain(INVALID_RESET_LINK);
    expect(none.callsTo('resetPassword')).toEqual([]);
    expect(none.callsTo('checkResetLink')).toEqual([]);
  });

  it('a used link says so when the page opens, with no form to fill in', async () => {
    const used = 'This password reset link was used already. Log in, or ask for a new link.';
    const api = fakeApi({
      checkAuth: () => unauthorized,
      checkResetLink: () => ({ status: 409, body: { message: used } }),
    });
    renderWithAuth(<MemberApp />, api, { path: `/reset_password?token=${token}` });
    expect((await screen.findByRole('alert')).textContent).toContain(used);
    expect(screen.queryByLabelText(/^New password/)).toBeNull();
    expect(screen.getByRole('link', { name: 'Ask for a new link' }).getAttribute('href')).toBe('/forgot_password');
    expect(api.callsTo('resetPassword')).toEqual([]);
  });
});

describe('Replacing the debit card', () => {
  it('asks first, naming the card that goes, then replaces it through the card entry', async () => {
    const user = userEvent.setup();
    const api = fakeApi({
      checkAuth: () => ({
        body: authAnswer({ ...filled, isAccountCreated: 1, isPayoutMethodAdded: 1, stripeID: 'acct_1' }),
      }),
      getPaymentConfig: () => ({ body: { publishableKey: 'pk_test_pair', emulatorBase: '/stripe-emulator' } }),
      getExternalAccounts: () => ({ body: [{ brand: 'Visa', exp_month: 4, exp_year: 2031, last4: '5556' }] }),
      replacePayoutMethod: () => ({
        body: {
          user: profile({ isAccountCreated: 1, isPayoutMethodAdded: 1, stripeID: 'acct_1' }),
          card: { brand: 'MasterCard', exp_month: 12, exp_year: 2034, last4: '8210' },
        },
      }),
    });
    vi.stubGlobal(
      'fetch',
      async () => new Response(JSON.stringify({ id: 'tok_new', object: 'token' }), { status: 200 }),
    );
    renderWithAuth(<MemberApp />, api, { path: '/my_account/payout_methods' });
    await user.click(await screen.findByRole('button', { name: 'Replace this card' }));
    expect(screen.getByRole('heading', { name: 'Replace your Visa card ending in 5556' })).toBeTruthy();
    // Keeping it closes the question.
    await user.click(screen.getByRole('button', { name: 'Keep this card' }));
    expect(screen.queryByRole('heading', { name: /Replace your Visa card/ })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Replace this card' }));
    await user.click(screen.getByRole('button', { name: 'Replace the card ending in 5556' }));
    await user.type(await screen.findByLabelText('Card number'), '5200828282828210');
    await user.type(screen.getByLabelText('Expiry'), '1234');
    await user.type(screen.getByLabelText('CVC'), '123');
    await user.type(screen.getByLabelText('ZIP'), '62701');
    await user.click(screen.getByRole('button', { name: 'Add debit card' }));
    expect(await screen.findByText(cardReplacedNotice('8210'))).toBeTruthy();
    expect(screen.getByTestId('payout-card').getAttribute('aria-label')).toBe('MasterCard debit card ending in 8210');
    expect(api.callsTo('replacePayoutMethod')[0]?.body).toEqual({ id: 'acct_1', token: 'tok_new' });
    expect(api.callsTo('addPayoutMethod')).toHaveLength(0);
  });
});

describe('The shop page names who recommended it', () => {
  it('shows the display name the answer gives, and nothing when there is none', async () => {
    const shared = (recommendedBy: string | null) =>
      fakeApi({
        checkAuth: () => unauthorized,
        getSharedProduct: () => ({
          body: { product: productDetail({ id: 'p-1' }), unitAmountCents: 1295, refKnown: true, recommendedBy },
        }),
        getPaymentConfig: () => ({ body: { publishableKey: 'pk_test_pair', emulatorBase: '/stripe-emulator' } }),
      });
    renderWithAuth(<MemberApp />, shared('Maya P.'), { path: '/shop/p-1?ref=ANNLEE42' });
    expect((await screen.findByTestId('shop-recommended')).textContent).toBe('Recommended by Maya P.');
    cleanup();
    renderWithAuth(<MemberApp />, shared(null), { path: '/shop/p-1' });
    await screen.findByTestId('shop-price');
    expect(screen.queryByTestId('shop-recommended')).toBeNull();
  });
});
