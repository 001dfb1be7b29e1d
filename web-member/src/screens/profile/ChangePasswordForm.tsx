import { useState } from 'react';
import { ChangePasswordRequest } from '@portal/shared/api/account';
import { MIN_PASSWORD } from '@portal/shared/api/schemas';
import { ErrorBanner } from '@portal/shared/ui/components/ErrorBanner';
import { FormField } from '@portal/shared/ui/components/FormField';
import { CheckIcon } from '@portal/shared/ui/components/icons';
import { useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import { useSchemaForm } from './useSchemaForm';

export const PASSWORD_CHANGED = 'Your password is changed. You were logged out on your other devices and browsers.';

/** A new password with the current one (/api/changePassword): this session stays, the others end. */
export function ChangePasswordForm({ onCancel }: { onCancel: () => void }) {
  const { call } = useAuth();
  const [done, setDone] = useState(false);
  const form = useSchemaForm<'currentPassword' | 'newPassword'>(
    ChangePasswordRequest,
    { currentPassword: '', newPassword: '' },
    async (values) => {
      await call('changePassword', values);
      setDone(true);
    },
    'change-password',
  );

  if (done) {
    return (
      <div className="banner banner--success" role="status">
        <CheckIcon className="banner__icon" aria-hidden="true" />
        <div className="banner__body">
          <p className="banner__message">{PASSWORD_CHANGED}</p>
        </div>
      </div>
    );
  }
  return (
    <form className="form" noValidate onSubmit={(event) => void form.submit(event)} aria-busy={form.busy}>
      {form.failure ? (
        <ErrorBanner title="Your password was not changed" message={form.failure} onDismiss={form.dismissFailure} />
      ) : null}
      <FormField
        {...form.field('currentPassword')}
        label="Current password"
        type="password"
        autoComplete="current-password"
        required
      />
      <FormField
        {...form.field('newPassword')}
        label="New password"
        hint={`At least ${MIN_PASSWORD} characters; not a common or leaked password.`}
        type="password"
        autoComplete="new-password"
        required
      />
      <div className="profile-form__actions">
        <button type="submit" className="button button--primary" disabled={form.busy}>
          {form.busy ? <span className="spinner spinner--small" aria-hidden="true" /> : null}
          Change password
        </button>
        <button type="button" className="button button--secondary" onClick={onCancel} disabled={form.busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
