import { useState } from 'react';
import { Link } from 'react-router-dom';
import { RequestPasswordResetRequest } from '@portal/shared/api/account';
import { ErrorBanner } from '@portal/shared/ui/components/ErrorBanner';
import { FormField } from '@portal/shared/ui/components/FormField';
import { CheckIcon } from '@portal/shared/ui/components/icons';
import { Page } from '@portal/shared/ui/components/Page';
import { useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import { useSchemaForm } from './profile/useSchemaForm';
import './profile/profile.css';

/**
 * '/forgot_password': asks for a reset link by e-mail. The answer is the same whether or not the
 * address has an account, so the page says what happens if it does.
 */
export function ForgotPasswordScreen() {
  const { callPublic } = useAuth();
  const [sent, setSent] = useState<{ email: string; validMinutes: number } | null>(null);
  const form = useSchemaForm<'email'>(
    RequestPasswordResetRequest,
    { email: '' },
    async (values) => {
      const answer = await callPublic('requestPasswordReset', values);
      setSent({ email: answer.email, validMinutes: answer.validMinutes });
    },
    'forgot',
  );
  return (
    <Page title="Forgot your password?">
      <div className="auth-layout">
        <div className="card auth-card">
          {sent ? (
            <div className="auth-card__done" role="status">
              <p className="verify-done">
                <CheckIcon className="verify-done__icon" aria-hidden="true" />
                <span>Check your inbox.</span>
              </p>
              <p>
                If <strong className="profile__address">{sent.email}</strong> has an account, we sent it a link to
                choose a new password. The link works once, for {sent.validMinutes} minutes. Nothing arrived? Look in
                the spam folder, or check the address and ask again.
              </p>
              <p>
                <Link className="link" to="/login">
                  Back to log in
                </Link>
              </p>
            </div>
          ) : (
            <>
              <p className="auth-card__lead">
                Type the e-mail address you log in with. We send it a link to choose a new password.
              </p>
              {form.failure ? <ErrorBanner message={form.failure} onDismiss={form.dismissFailure} /> : null}
              <form className="form" noValidate onSubmit={(event) => void form.submit(event)} aria-busy={form.busy}>
                <FormField
                  {...form.field('email')}
                  label="Email"
                  type="email"
                  inputMode="email"
                  autoComplete="email"
                  autoCapitalize="none"
                  spellCheck={false}
                  required
                />
                <button type="submit" className="button button--primary button--block" disabled={form.busy}>
                  {form.busy ? <span className="spinner spinner--small" aria-hidden="true" /> : null}
                  Send me a link
                </button>
              </form>
              <div className="auth-card__footer">
                <p>
                  Remembered it?{' '}
                  <Link className="link" to="/login">
                    Log in
                  </Link>
                </p>
              </div>
            </>
          )}
        </div>
      </div>
    </Page>
  );
}
