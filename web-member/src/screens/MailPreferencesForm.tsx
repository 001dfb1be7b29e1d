import { useState, type FormEvent } from 'react';
import type { MailPreferences } from '@portal/shared/api/order-page';
import { DEFAULT_MAIL_PREFERENCES } from '@portal/shared/domain/mail-preferences';
import { toApiError, useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import { ErrorBanner } from '@portal/shared/ui/components/ErrorBanner';
import './mailPreferences.css';

const CHOICES: { name: keyof MailPreferences; label: string; hint: string }[] = [
  {
    name: 'saleMails',
    label: 'When I make a sale',
    hint: 'The commission you earn and when it becomes available.',
  },
  {
    name: 'payoutMails',
    label: 'When a payout is on its way',
    hint: 'The amount paid out to your debit card.',
  },
];

/**
 * My Account's "E-mails": the member's two optional mails ("you made a sale", "your payout is on
 * its way"), on unless turned off, saved with /api/saveMailPreferences.
 */
export function MailPreferencesForm() {
  const { userProfile, call, setUserProfile } = useAuth();
  const stored = userProfile?.mailPreferences ?? DEFAULT_MAIL_PREFERENCES;
  const [choice, setChoice] = useState<MailPreferences>(stored);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const changed = choice.saleMails !== stored.saleMails || choice.payoutMails !== stored.payoutMails;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    setSaved(false);
    try {
      const result = await call('saveMailPreferences', choice);
      if (userProfile) setUserProfile({ ...userProfile, mailPreferences: result.mailPreferences });
      setChoice(result.mailPreferences);
      setSaved(true);
    } catch (caught) {
      setError(toApiError(caught).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card mail-preferences" onSubmit={(event) => void onSubmit(event)} aria-labelledby="mails-title">
      <fieldset className="mail-preferences__set" disabled={busy}>
        <legend className="mail-preferences__legend" id="mails-title">
          Send me an e-mail
        </legend>
        {CHOICES.map(({ name, label, hint }) => (
          <div className="mail-preferences__row" key={name}>
            <input
              id={`mail-${name}`}
              type="checkbox"
              className="mail-preferences__input"
              checked={choice[name]}
              aria-describedby={`mail-${name}-hint`}
              onChange={(event) => {
                setChoice((current) => ({ ...current, [name]: event.target.checked }));
                setSaved(false);
              }}
            />
            <span className="mail-preferences__text">
              <label htmlFor={`mail-${name}`} className="mail-preferences__label">
                {label}
              </label>
              <span className="mail-preferences__hint" id={`mail-${name}-hint`}>
                {hint}
              </span>
            </span>
          </div>
        ))}
      </fieldset>
      <p className="mail-preferences__note">Mails about your account and its security are always sent.</p>
      {error ? (
        <ErrorBanner title="Your choice was not saved" message={error} onDismiss={() => setError(null)} />
      ) : null}
      <div className="mail-preferences__actions">
        <button type="submit" className="button button--primary" disabled={busy || !changed} aria-busy={busy}>
          {busy ? 'Saving…' : 'Save e-mail choices'}
        </button>
        <span role="status" className="mail-preferences__status">
          {saved ? 'Saved.' : ''}
        </span>
      </div>
    </form>
  );
}
