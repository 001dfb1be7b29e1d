import { useState } from 'react';
import { ChangeEmailRequest } from '@portal/shared/api/account';
import { ErrorBanner } from '@portal/shared/ui/components/ErrorBanner';
import { FormField } from '@portal/shared/ui/components/FormField';
import { CheckIcon } from '@portal/shared/ui/components/icons';
import { useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import { useSchemaForm } from './useSchemaForm';

/**
 * A new e-mail address: a link goes to it, and the old address stays the login until the link is
 * opened (/api/changeEmail). The current password is asked again. The answer is the same for an
 * address another account holds (its owner is told instead, no link is sent), so the words after
 * sending say so rather than promise a link.
 */
export function ChangeEmailForm({ onCancel }: { onCancel: () => void }) {
  const { call, userProfile } = useAuth();
  const [sent, setSent] = useState<{ pendingEmail: string; email: string } | null>(null);
  const form = useSchemaForm<'email' | 'password'>(
    ChangeEmailRequest,
    { email: '', password: '' },
    async (values) => {
      const answer = await call('changeEmail', values);
      setSent({ pendingEmail: answer.pendingEmail, email: answer.email });
    },
    'change-email',
  );

  if (sent) {
    return (
      <div className="banner banner--success" role="status">
        <CheckIcon className="banner__icon" aria-hidden="true" />
        <div className="banner__body">
          <p className="banner__message">
            We mailed <strong className="profile__address">{sent.pendingEmail}</strong>. Open the link in that mail to
            make it your e-mail address; until then you log in with{' '}
            <span className="profile__address">{sent.email}</span>.
          </p>
          <p className="banner__message">
            No link? Look in the spam folder. If the address is already the login of another account, its owner was told
            instead and no link was sent: an address can belong to one account only.
          </p>
        </div>
      </div>
    );
  }
  return (
    <form className="form" noValidate onSubmit={(event) => void form.submit(event)} aria-busy={form.busy}>
      {form.failure ? (
        <ErrorBanner title="No link was sent" message={form.failure} onDismiss={form.dismissFailure} />
      ) : null}
      <FormField
        {...form.field('email')}
        label="New e-mail address"
        hint={userProfile ? `Now: ${userProfile.email}. We send a link to the new address to confirm it.` : undefined}
        type="email"
        inputMode="email"
        autoComplete="email"
        autoCapitalize="none"
        spellCheck={false}
        required
      />
      <FormField
        {...form.field('password')}
        label="Your current password"
        type="password"
        autoComplete="current-password"
        required
      />
      <div className="profile-form__actions">
        <button type="submit" className="button button--primary" disabled={form.busy}>
          {form.busy ? <span className="spinner spinner--small" aria-hidden="true" /> : null}
          Send the link
        </button>
        <button type="button" className="button button--secondary" onClick={onCancel} disabled={form.busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
