import { useState } from 'react';
import { toApiError, useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import { ErrorBanner } from '@portal/shared/ui/components/ErrorBanner';
import { AlertIcon, CheckIcon } from '@portal/shared/ui/components/icons';
import { Page } from '@portal/shared/ui/components/Page';
import { BackLink } from '@portal/shared/ui/components/BackLink';
import type { UserProfile } from '@portal/shared/api/schemas';

export const VERIFY_HINT = 'Check your email and click the verification link';

/** The rows of the profile, in the order of spec section 2. */
const FIELDS: readonly { key: keyof UserProfile; label: string }[] = [
  { key: 'email', label: 'Email' },
  { key: 'first_name', label: 'First name' },
  { key: 'last_name', label: 'Last name' },
  { key: 'phone', label: 'Phone' },
  { key: 'street_address_1', label: 'Street address' },
  { key: 'address_unit', label: 'Address unit' },
  { key: 'city', label: 'City' },
  { key: 'state', label: 'State' },
  { key: 'zipcode', label: 'Zipcode' },
];

/** '/my_account/my_profile': the member's profile, and the e-mail verification hint while it is unverified. */
export function MyProfileScreen() {
  const { userProfile } = useAuth();
  return (
    <Page title="My Profile" actions={<BackLink to="/my_account" />}>
      {userProfile && !userProfile.isEmailVerified ? <VerifyEmailHint email={userProfile.email} /> : null}
      <section className="card profile" aria-label="Profile">
        <dl className="profile__list">
          {FIELDS.map(({ key, label }) => {
            const value = userProfile ? String(userProfile[key] ?? '').trim() : '';
            return (
              <div className="profile__row" key={key}>
                <dt className="profile__label">{label}</dt>
                <dd className={value ? 'profile__value' : 'profile__value profile__value--empty'}>
                  {value || (
                    <>
                      <span aria-hidden="true">—</span>
                      <span className="visually-hidden">Not given</span>
                    </>
                  )}
                  {key === 'email' && userProfile?.isEmailVerified ? (
                    <span className="profile__verified">
                      <CheckIcon aria-hidden="true" /> Verified
                    </span>
                  ) : null}
                </dd>
              </div>
            );
          })}
        </dl>
      </section>
    </Page>
  );
}

type ResendState =
  { kind: 'idle' } | { kind: 'sending' } | { kind: 'sent'; email: string } | { kind: 'failed'; message: string };

function VerifyEmailHint({ email }: { email: string }) {
  const { call } = useAuth();
  const [state, setState] = useState<ResendState>({ kind: 'idle' });
  const resend = async () => {
    setState({ kind: 'sending' });
    try {
      const answer = await call('verifyEmail', { action: 'send' });
      setState({ kind: 'sent', email: 'sent' in answer ? answer.email : email });
    } catch (error) {
      setState({ kind: 'failed', message: toApiError(error).message });
    }
  };
  return (
    <section className="card verify-hint" aria-labelledby="verify-hint-text">
      <p className="verify-hint__text" id="verify-hint-text">
        <AlertIcon className="verify-hint__icon" aria-hidden="true" />
        <span>{VERIFY_HINT}</span>
      </p>
      <div className="verify-hint__actions">
        <button
          type="button"
          className="button button--secondary"
          onClick={() => void resend()}
          disabled={state.kind === 'sending'}
          aria-busy={state.kind === 'sending' || undefined}
        >
          {state.kind === 'sending' ? 'Sending…' : 'Resend verification email'}
        </button>
      </div>
      <div aria-live="polite">
        {state.kind === 'sent' ? <p className="verify-hint__sent">We sent a new link to {state.email}.</p> : null}
      </div>
      {state.kind === 'failed' ? <ErrorBanner message={state.message} title="The link was not sent" /> : null}
    </section>
  );
}
