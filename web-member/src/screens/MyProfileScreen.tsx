import { useState } from 'react';
import { displayNameOf } from '@portal/shared/api/account';
import type { SearchAddresses } from '@portal/shared/ui/components/AddressAutocomplete';
import { toApiError, useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import { ErrorBanner } from '@portal/shared/ui/components/ErrorBanner';
import { AlertIcon, CheckIcon } from '@portal/shared/ui/components/icons';
import { Page } from '@portal/shared/ui/components/Page';
import { BackLink } from '@portal/shared/ui/components/BackLink';
import type { UserProfile } from '@portal/shared/api/schemas';
import { ChangeEmailForm } from './profile/ChangeEmailForm';
import { ChangePasswordForm } from './profile/ChangePasswordForm';
import { ProfileForm } from './profile/ProfileForm';
import './payouts/payouts.css';
import './profile/profile.css';

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

export const PROFILE_SAVED = 'Your profile is saved.';

type Panel = 'none' | 'profile' | 'email' | 'password';

/**
 * '/my_account/my_profile': the member's profile with its edit form, a new e-mail address (verified
 * before it replaces the old one), a new password, and the e-mail verification hint while the
 * address is unverified.
 */
export function MyProfileScreen({ search }: { search?: SearchAddresses } = {}) {
  const { userProfile } = useAuth();
  const [open, setOpen] = useState<Panel>('none');
  const [saved, setSaved] = useState(false);
  const close = (panel: Panel) => {
    setOpen('none');
    // Back to the button that opened it, for the keyboard.
    requestAnimationFrame(() => document.getElementById(`open-${panel}`)?.focus());
  };
  const shownName = userProfile
    ? displayNameOf({ ...userProfile, display_name: userProfile.display_name ?? '' })
    : null;
  return (
    <Page title="My Profile" actions={<BackLink to="/my_account" />}>
      {userProfile && !userProfile.isEmailVerified ? <VerifyEmailHint email={userProfile.email} /> : null}
      <div aria-live="polite">
        {saved && open === 'none' ? (
          <div className="banner banner--success" role="status">
            <CheckIcon className="banner__icon" aria-hidden="true" />
            <div className="banner__body">
              <p className="banner__message">{PROFILE_SAVED}</p>
            </div>
          </div>
        ) : null}
      </div>
      <section className="card profile" aria-labelledby="profile-title">
        <div className="profile__head">
          <h2 className="section-title" id="profile-title">
            Your details
          </h2>
          {open !== 'profile' ? (
            <button
              type="button"
              id="open-profile"
              className="button button--secondary button--small"
              onClick={() => {
                setSaved(false);
                setOpen('profile');
              }}
            >
              Edit profile
            </button>
          ) : null}
        </div>
        {open === 'profile' ? (
          <ProfileForm
            search={search}
            onDone={() => {
              setSaved(true);
              close('profile');
            }}
            onCancel={() => close('profile')}
          />
        ) : (
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
            <div className="profile__row">
              <dt className="profile__label">Display name</dt>
              <dd className={shownName ? 'profile__value' : 'profile__value profile__value--empty'}>
                {shownName ?? (
                  <>
                    <span aria-hidden="true">—</span>
                    <span className="visually-hidden">Not given</span>
                  </>
                )}
                {shownName && !userProfile?.display_name ? (
                  <span className="profile__note"> (your first name and last initial)</span>
                ) : null}
              </dd>
            </div>
          </dl>
        )}
      </section>
      <section className="card profile" aria-labelledby="email-title">
        <div className="profile__head">
          <h2 className="section-title" id="email-title">
            E-mail address
          </h2>
          {open !== 'email' ? (
            <button
              type="button"
              id="open-email"
              className="button button--secondary button--small"
              onClick={() => setOpen('email')}
            >
              Change e-mail address
            </button>
          ) : null}
        </div>
        {open === 'email' ? (
          <ChangeEmailForm onCancel={() => close('email')} />
        ) : (
          <p className="profile__address">{userProfile?.email}</p>
        )}
      </section>
      <section className="card profile" aria-labelledby="password-title">
        <div className="profile__head">
          <h2 className="section-title" id="password-title">
            Password
          </h2>
          {open !== 'password' ? (
            <button
              type="button"
              id="open-password"
              className="button button--secondary button--small"
              onClick={() => setOpen('password')}
            >
              Change password
            </button>
          ) : null}
        </div>
        {open === 'password' ? (
          <ChangePasswordForm onCancel={() => close('password')} />
        ) : (
          <p className="profile__note">Changing it logs you out on your other devices and browsers.</p>
        )}
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
