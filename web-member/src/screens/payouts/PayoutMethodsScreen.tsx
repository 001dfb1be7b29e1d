import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import type { PayoutCard } from '@portal/shared/api/payments';
import { ApiError } from '@portal/shared/api/client';
import { useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import { ErrorBanner } from '@portal/shared/ui/components/ErrorBanner';
import { CheckIcon, WalletIcon } from '@portal/shared/ui/components/icons';
import { Loading } from '@portal/shared/ui/components/Loading';
import { Page } from '@portal/shared/ui/components/Page';
import { BackLink } from '@portal/shared/ui/components/BackLink';
import type { SubmitToken } from './cardTypes';
import { EmulatorCardForm } from './EmulatorCardForm';
import { usePaymentConfig, usePayoutCards } from './usePaymentConfig';
import './payouts.css';

/** Stripe.js and Elements: their own chunk, only when a real publishable key is in use. */
const StripeCardForm = lazy(() => import('./StripeCardForm'));

export const CARD_ADDED_NOTICE = 'Your debit card is added: your commissions are paid to it.';
export const cardReplacedNotice = (last4: string) =>
  `Your new card ending in ${last4} is in place: your commissions are paid to it from now on.`;

/** A card as the member recognises it: brand, last four digits, expiry. */
export function PayoutCardView({ card }: { card: PayoutCard }) {
  const month = String(card.exp_month).padStart(2, '0');
  return (
    <div
      className="payout-card"
      data-testid="payout-card"
      aria-label={`${card.brand} debit card ending in ${card.last4}`}
    >
      <div className="payout-card__top">
        <span className="payout-card__brand">{card.brand}</span>
        <span className="payout-card__kind">Debit</span>
      </div>
      <p className="payout-card__number" aria-hidden="true">
        •••• •••• •••• {card.last4}
      </p>
      <p className="visually-hidden">Card ending in {card.last4}</p>
      <p className="payout-card__expiry">
        <span className="payout-card__expiry-label">Expires</span> {month}/{card.exp_year}
      </p>
    </div>
  );
}

/**
 * The card entry: the emulator's form or Stripe Elements, then /api/addPayoutMethod, or
 * /api/replacePayoutMethod for a new card in place of the one there.
 */
function CardEntry({ onAdded, replace = false }: { onAdded: (card: PayoutCard) => void; replace?: boolean }) {
  const { call, userProfile, setUserProfile } = useAuth();
  const config = usePaymentConfig();
  const accountId = userProfile?.stripeID ?? '';

  const submit = useCallback<SubmitToken>(
    async (token) => {
      try {
        const answer = await call(replace ? 'replacePayoutMethod' : 'addPayoutMethod', { id: accountId, token });
        // The old screen compared the answer wrongly and always showed an error; success is the
        // answer itself: the card is shown and the profile (isPayoutMethodAdded 1) taken at once.
        setUserProfile(answer.user);
        onAdded(answer.card);
        return null;
      } catch (error) {
        if (error instanceof ApiError) return error.fields?.token ?? error.message;
        return replace ? 'Your card could not be replaced. Try again.' : 'Your card could not be added. Try again.';
      }
    },
    [call, accountId, setUserProfile, onAdded, replace],
  );

  if (config.isPending) return <Loading label="Preparing the card form…" block={false} />;
  if (config.isError) {
    return (
      <ErrorBanner
        title="The card form could not be prepared"
        message={config.error.message}
        onRetry={() => void config.refetch()}
        retrying={config.isFetching}
      />
    );
  }
  const { publishableKey, emulatorBase } = config.data;
  return emulatorBase ? (
    <EmulatorCardForm publishableKey={publishableKey} emulatorBase={emulatorBase} submit={submit} />
  ) : (
    <Suspense fallback={<Loading label="Loading the secure card form…" block={false} />}>
      <StripeCardForm publishableKey={publishableKey} submit={submit} />
    </Suspense>
  );
}

/**
 * A new debit card in place of the current one: first a confirmation naming the card that goes
 * (its brand and last four), then the card entry. The new card becomes the default before the
 * old one is deleted, so commissions always have a card to go to.
 */
function ReplaceCard({ current, onReplaced }: { current: PayoutCard; onReplaced: (card: PayoutCard) => void }) {
  const [step, setStep] = useState<'closed' | 'confirm' | 'entry'>('closed');
  if (step === 'closed') {
    return (
      <button type="button" id="replace-card" className="button button--secondary" onClick={() => setStep('confirm')}>
        Replace this card
      </button>
    );
  }
  const cancel = () => {
    setStep('closed');
    requestAnimationFrame(() => document.getElementById('replace-card')?.focus());
  };
  return (
    <section className="card payout-panel replace-card" aria-labelledby="replace-card-title">
      <h2 className="section-title" id="replace-card-title">
        Replace your {current.brand} card ending in {current.last4}
      </h2>
      {step === 'confirm' ? (
        <>
          <p className="payout-section__note">
            Your commissions will be paid to the new card. The {current.brand} card ending in {current.last4} is removed
            from your payout account once the new one is added; until then it stays.
          </p>
          <div className="replace-card__actions">
            <button type="button" className="button button--primary" autoFocus onClick={() => setStep('entry')}>
              Replace the card ending in {current.last4}
            </button>
            <button type="button" className="button button--secondary" onClick={cancel}>
              Keep this card
            </button>
          </div>
        </>
      ) : (
        <>
          <p className="payout-section__note">Commissions are paid to a US debit card (not a credit card), in USD.</p>
          <CardEntry replace onAdded={onReplaced} />
          <button type="button" className="button button--ghost" onClick={cancel}>
            Cancel
          </button>
        </>
      )}
    </section>
  );
}

function NoAccountYet() {
  return (
    <div className="callout">
      <div className="callout__text">
        <p className="callout__title">Create your payout account first</p>
        <p className="callout__body">Your debit card is added to your payout account, so that one comes first.</p>
      </div>
      <Link className="button button--primary" to="/my_account/create_payout_account">
        Create payout account
      </Link>
    </div>
  );
}

function Notice({ text }: { text: string }) {
  return (
    <div className="banner banner--success" role="status">
      <CheckIcon className="banner__icon" aria-hidden="true" />
      <div className="banner__body">
        <p className="banner__message">{text}</p>
      </div>
    </div>
  );
}

/** '/my_account/payout_methods': the member's debit card, or the form to add one. */
export function PayoutMethodsScreen() {
  const { userProfile } = useAuth();
  const location = useLocation();
  const queryClient = useQueryClient();
  const [replaced, setReplaced] = useState<string | null>(null);
  const notice = (location.state as { notice?: string } | null)?.notice;
  const accountId = userProfile?.isAccountCreated === 1 ? userProfile.stripeID : null;
  const cards = usePayoutCards(accountId);
  const onAdded = useCallback(
    (card: PayoutCard) => queryClient.setQueryData(['payoutCards', accountId], [card]),
    [queryClient, accountId],
  );
  const onReplaced = useCallback(
    (card: PayoutCard) => {
      queryClient.setQueryData(['payoutCards', accountId], [card]);
      setReplaced(cardReplacedNotice(card.last4));
      requestAnimationFrame(() => document.getElementById('replace-card')?.focus());
    },
    [queryClient, accountId],
  );

  let content;
  if (!accountId) content = <NoAccountYet />;
  else if (cards.isPending) content = <Loading label="Loading your payout method…" />;
  else if (cards.isError) {
    content = (
      <ErrorBanner
        title="Your payout method could not be loaded"
        message={cards.error.message}
        onRetry={() => void cards.refetch()}
        retrying={cards.isFetching}
      />
    );
  } else if (cards.data[0]) {
    content = (
      <section aria-labelledby="your-card" className="payout-section">
        <h2 className="section-title" id="your-card">
          Your debit card
        </h2>
        <PayoutCardView card={cards.data[0]} />
        <p className="payout-section__note">Your commissions are paid to this card.</p>
        <ReplaceCard
          key={cards.data[0].last4 + cards.data[0].exp_year}
          current={cards.data[0]}
          onReplaced={onReplaced}
        />
      </section>
    );
  } else {
    content = (
      <section aria-labelledby="add-card" className="payout-section card payout-panel">
        <h2 className="section-title" id="add-card">
          <WalletIcon className="section-title__icon" aria-hidden="true" /> Add a debit card
        </h2>
        <p className="payout-section__note">Commissions are paid to a US debit card (not a credit card), in USD.</p>
        <CardEntry onAdded={onAdded} />
      </section>
    );
  }

  return (
    <Page title="Payout Methods" actions={<BackLink to="/my_account" />}>
      {notice && !cards.data?.[0] ? <Notice text={notice} /> : null}
      {replaced ? <Notice text={replaced} /> : null}
      {content}
    </Page>
  );
}

/** '/my_account/add_payout_method': the card entry form alone; once added, on to the card. */
export function AddPayoutMethodScreen() {
  const { userProfile } = useAuth();
  const navigate = useNavigate();
  const onAdded = useCallback(
    () => void navigate('/my_account/payout_methods', { state: { notice: CARD_ADDED_NOTICE } }),
    [navigate],
  );
  return (
    <Page title="Add a debit card" actions={<BackLink to="/my_account/payout_methods" />}>
      {userProfile?.isAccountCreated === 1 ? (
        <div className="card payout-panel">
          <CardEntry onAdded={onAdded} />
        </div>
      ) : (
        <NoAccountYet />
      )}
    </Page>
  );
}
