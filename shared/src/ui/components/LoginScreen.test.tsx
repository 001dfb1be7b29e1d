import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { PASSWORD_IS_BLANK, PASSWORD_IS_COMMON, PASSWORD_IS_EMAIL } from '../../api/schemas';
import { LoginScreen } from './LoginScreen';
import { SignupScreen } from './SignupScreen';
import {
  authAnswer,
  deferred,
  fakeApi,
  renderWithAuth,
  Where,
  type FakeApi,
  type FakeReply,
} from '../../../test/testing';

afterEach(cleanup);

function renderForm(api: FakeApi, path: '/login' | '/signup' = '/login') {
  return renderWithAuth(
    <>
      <Routes>
        <Route path="/login" element={<LoginScreen />} />
        <Route path="/signup" element={<SignupScreen />} />
        <Route path="*" element={<h1>Elsewhere</h1>} />
      </Routes>
      <Where />
    </>,
    api,
    { path },
  ).store;
}

const email = () => screen.getByLabelText('Email') as HTMLInputElement;
const password = () => screen.getByLabelText('Password') as HTMLInputElement;

describe('login form', () => {
  it('has labelled email and password fields with autocomplete, and a link to sign up', () => {
    renderForm(fakeApi());
    expect(screen.getByRole('heading', { name: 'Log in', level: 1 })).toBeTruthy();
    expect(email().type).toBe('email');
    expect(email().autocomplete).toBe('email');
    expect(password().type).toBe('password');
    expect(password().autocomplete).toBe('current-password');
    expect(screen.getByRole('link', { name: 'Create an account' }).getAttribute('href')).toBe('/signup');
  });

  it('says which fields are missing, ties the messages to them and sends nothing', async () => {
    const api = fakeApi();
    renderForm(api);
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(screen.getByText('The e-mail address is required.')).toBeTruthy();
    expect(screen.getByText('The password is required.')).toBeTruthy();
    expect(email().getAttribute('aria-invalid')).toBe('true');
    const describedBy = email().getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(describedBy)?.textContent).toBe('The e-mail address is required.');
    expect(document.activeElement).toBe(email());
    expect(api.calls).toHaveLength(0);
  });

  it('rejects an address that is not an e-mail', async () => {
    renderForm(fakeApi());
    await userEvent.type(email(), 'not-an-email');
    await userEvent.type(password(), 'whatever');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(screen.getByText('The e-mail address must be a valid e-mail address.')).toBeTruthy();
  });

  it('clears a message once the field is fixed', async () => {
    renderForm(fakeApi());
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await userEvent.type(email(), 'ann@example.com');
    expect(screen.queryByText('The e-mail address is required.')).toBeNull();
    expect(screen.getByText('The password is required.')).toBeTruthy();
    expect(email().hasAttribute('aria-invalid')).toBe(false);
  });

  it('shows the server’s message in words when the password is wrong', async () => {
    const api = fakeApi({
      login: () => ({ status: 401, body: { message: 'The email or password is not correct.' } }),
    });
    renderForm(api);
    await userEvent.type(email(), 'ann@example.com');
    await userEvent.type(password(), 'wrong-password');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The email or password is not correct.');
    expect(screen.getByTestId('where').textContent).toBe('/login');
    expect(api.callsTo('login')[0]?.body).toEqual({ email: 'ann@example.com', password: 'wrong-password' });
  });

  it('shows server field errors beside their fields', async () => {
    const api = fakeApi({
      login: () => ({
        status: 400,
        body: {
          message: 'Check the highlighted fields.',
          fields: { email: 'The e-mail address must be a valid e-mail address.' },
        },
      }),
    });
    renderForm(api);
    await userEvent.type(email(), 'ann@example.com');
    await userEvent.type(password(), 'secret-password');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Check the highlighted fields.');
    expect(screen.getByText('The e-mail address must be a valid e-mail address.')).toBeTruthy();
    expect(email().getAttribute('aria-invalid')).toBe('true');
  });

  it('shows a network failure in words', async () => {
    renderForm(fakeApi({ login: () => ({ networkError: true }) }));
    await userEvent.type(email(), 'ann@example.com');
    await userEvent.type(password(), 'secret-password');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Network Error/);
  });

  it('disables the button while submitting and goes to /member on success', async () => {
    const gate = deferred<FakeReply>();
    const api = fakeApi({ login: () => gate.promise });
    const store = renderForm(api);
    await userEvent.type(email(), ' Ann@Example.com ');
    await userEvent.type(password(), 'secret-password');
    const button = screen.getByRole('button', { name: 'Log in' }) as HTMLButtonElement;
    await userEvent.click(button);
    expect(button.disabled).toBe(true);
    await userEvent.click(button);
    expect(api.callsTo('login')).toHaveLength(1);
    await act(async () => gate.resolve({ body: authAnswer() }));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/member'));
    expect(store.getState().status).toBe('authenticated');
    expect(store.hasAccessToken()).toBe(true);
  });

  it('does not apply the sign-up length rules to an existing password', async () => {
    const api = fakeApi({ login: () => ({ body: authAnswer() }) });
    renderForm(api);
    await userEvent.type(email(), 'ann@example.com');
    await userEvent.type(password(), 'short');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(api.callsTo('login')).toHaveLength(1));
  });
});

describe('signup form', () => {
  it('has its own labels, autocomplete and a link back to log in', () => {
    renderForm(fakeApi(), '/signup');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Create your account');
    expect(password().autocomplete).toBe('new-password');
    expect(screen.getByRole('link', { name: 'Already have an account? Log in' }).getAttribute('href')).toBe('/login');
  });

  it('applies the shared password rules: at least 8, at most 128 characters', async () => {
    const api = fakeApi();
    renderForm(api, '/signup');
    await userEvent.type(email(), 'ann@example.com');
    await userEvent.type(password(), 'short');
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(screen.getByText('The password must be at least 8 characters.')).toBeTruthy();
    await userEvent.clear(password());
    await userEvent.click(password());
    await userEvent.paste('x'.repeat(129));
    expect(screen.getByText('The password must be at most 128 characters.')).toBeTruthy();
    expect(api.calls).toHaveLength(0);
  });

  it('refuses a password that is only spaces, the e-mail address or the part before its @, and sends nothing', async () => {
    const api = fakeApi();
    renderForm(api, '/signup');
    await userEvent.type(email(), 'ann.leeson@example.com');
    await userEvent.type(password(), ' '.repeat(8));
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(screen.getByText(PASSWORD_IS_BLANK)).toBeTruthy();
    for (const chosen of ['Ann.Leeson@example.com', 'ann.leeson']) {
      await userEvent.clear(password());
      await userEvent.type(password(), chosen);
      await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
      expect(screen.getByText(PASSWORD_IS_EMAIL)).toBeTruthy();
      expect(password().getAttribute('aria-invalid')).toBe('true');
    }
    expect(api.calls).toHaveLength(0);
  });

  it("shows the server's reason for refusing a password at the password field", async () => {
    const api = fakeApi({
      signup: () => ({ status: 400, body: { message: PASSWORD_IS_COMMON, fields: { password: PASSWORD_IS_COMMON } } }),
    });
    renderForm(api, '/signup');
    await userEvent.type(email(), 'new@example.com');
    await userEvent.type(password(), 'iloveyou1');
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    await waitFor(() => expect(password().getAttribute('aria-invalid')).toBe('true'));
    const describedBy = password().getAttribute('aria-describedby') ?? '';
    expect(
      document.getElementById(describedBy.split(' ').find((id) => id.includes('error')) ?? describedBy)?.textContent,
    ).toBe(PASSWORD_IS_COMMON);
    // Said once, at the field: no banner repeating it, and the focus goes to the field.
    expect(screen.getAllByText(PASSWORD_IS_COMMON)).toHaveLength(1);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(document.activeElement).toBe(password());
  });

  it('signs up and goes to /member', async () => {
    const api = fakeApi({ signup: () => ({ body: authAnswer() }) });
    renderForm(api, '/signup');
    await userEvent.type(email(), 'new@example.com');
    await userEvent.type(password(), 'a-good-password');
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/member'));
    expect(api.callsTo('signup')[0]?.body).toEqual({ email: 'new@example.com', password: 'a-good-password' });
  });

  it('shows why a signup failed', async () => {
    const api = fakeApi({
      signup: () => ({ status: 409, body: { message: 'An account with this email already exists.' } }),
    });
    renderForm(api, '/signup');
    await userEvent.type(email(), 'taken@example.com');
    await userEvent.type(password(), 'a-good-password');
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect((await screen.findByRole('alert')).textContent).toBe('An account with this email already exists.');
    expect((screen.getByRole('button', { name: 'Sign up' }) as HTMLButtonElement).disabled).toBe(false);
  });
});
