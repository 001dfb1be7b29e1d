import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { INVALID_RESET_LINK, RESET_TOKEN_PATTERN, ResetPasswordRequest } from '@portal/shared/api/account';
import { MIN_PASSWORD } from '@portal/shared/api/schemas';
import { ErrorBanner } from '@portal/shared/ui/components/ErrorBanner';
import { FormField } from '@portal/shared/ui/components/FormField';
import { CheckIcon } from '@portal/shared/ui/components/icons';
import { Page } from '@portal/shared/ui/components/Page';
import { toApiError, useAuth, useAuthStore } from '@portal/shared/ui/hooks/AuthProvider';
import { useSchemaForm } from './profile/useSchemaForm';
import './profile/profile.css';

export const PASSWORD_RESET_DONE = 'Your new password is set. You were logged out everywhere: log in with it.';

/**
 * '/reset_password?token=…': the link of the reset e-mail. A new password (the sign-up's rules);
 * once set, every session of the account has ended, this browser's too.
 */
export function ResetPasswordScreen() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const { callPublic } = useAuth();
  const store = useAuthStore();
  const [done, setDone] = useState<string | null>(null);
  // The link is checked when the page opens: a used or expired one says so before any typing.
  const link = useQuery({
    queryKey: ['resetLink', token],
    queryFn: () => callPublic('checkResetLink', { token }),
    enabled: RESET_TOKEN_PATTERN.test(token),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const form = useSchemaForm<'token' | 'password'>(
    ResetPasswordRequest,
    { token, password: '' },
    async (values) => {
      const answer = await callPublic('resetPassword', values);
      // This browser's session ended with the others: let the app know (it asks, and is told so).
      if (store.getState().status === 'authenticated') await store.checkAuth({ force: true }).catch(() => undefined);
      setDone(answer.email);
    },
    'reset',
  );

  const refused = link.isError && done === null ? toApiError(link.error).message : null;
  if (!RESET_TOKEN_PATTERN.test(token) || refused) {
    return (
      <Page title="Choose a new password">
        <ErrorBanner title="This link does not work" message={refused ?? INVALID_RESET_LINK} />
        <p>
          <Link className="link" to="/forgot_password">
            Ask for a new link
          </Link>
        </p>
      </Page>
    );
  }
  return (
    <Page title="Choose a new password">
      <div className="auth-layout">
        <div className="card auth-card">
          {done !== null ? (
            <div className="auth-card__done" role="status">
              <p className="verify-done">
                <CheckIcon className="verify-done__icon" aria-hidden="true" />
                <span>{PASSWORD_RESET_DONE}</span>
              </p>
              <p>
                <Link className="button button--primary" to="/login">
                  Log in
                </Link>
              </p>
            </div>
          ) : (
            <>
              <p className="auth-card__lead">Choose the password you will log in with from now on.</p>
              {form.failure || form.errors.token ? (
                <ErrorBanner
                  title="Your password was not changed"
                  message={form.errors.token ?? form.failure ?? ''}
                  onDismiss={form.errors.token ? undefined : form.dismissFailure}
                />
              ) : null}
              {form.errors.token || form.failure ? (
                <p>
                  <Link className="link" to="/forgot_password">
                    Ask for a new link
                  </Link>
                </p>
              ) : null}
              <form className="form" noValidate onSubmit={(event) => void form.submit(event)} aria-busy={form.busy}>
                <FormField
                  {...form.field('password')}
                  label="New password"
                  hint={`At least ${MIN_PASSWORD} characters; not a common or leaked password.`}
                  type="password"
                  autoComplete="new-password"
                  required
                />
                <button type="submit" className="button button--primary button--block" disabled={form.busy}>
                  {form.busy ? <span className="spinner spinner--small" aria-hidden="true" /> : null}
                  Set my new password
                </button>
              </form>
            </>
          )}
        </div>
      </div>
    </Page>
  );
}
