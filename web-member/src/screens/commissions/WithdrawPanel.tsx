import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { WithdrawalQuote } from '@portal/shared/api/payout-batches';
import { formatMoney } from '@portal/shared/domain/format';
import { toApiError, useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import { ConfirmDialog } from '@portal/shared/ui/components/ConfirmDialog';
import { Link } from 'react-router-dom';
import { centsOf } from './useMyCommissions';
import './commissions.css';

const money = (dollars: number) => formatMoney(centsOf(dollars));

/** "30 Nov" (UTC, as Stripe dates its funds). */
const shortDay = (iso: string) =>
  new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

/**
 * What a withdrawal of the available balance brings, said beside its button: the fee (when the
 * member pays one) and the amount that reaches the card, and when, so the figures agree in words.
 */
export function arrivalWords(terms: WithdrawalQuote): string {
  const card = `your ${terms.card?.brand ?? 'debit'} card ending ${terms.card?.last4 ?? '····'}`;
  if (terms.method === 'instant') {
    return terms.feePaidBy === 'member' && terms.fee > 0
      ? `Instant payout: Stripe's fee is ${money(terms.fee)}, so ${money(terms.receive)} reaches ${card} in minutes.`
      : `Instant payout, no fee for you: ${money(terms.receive)} reaches ${card} in minutes.`;
  }
  return `Standard payout, free: ${money(terms.receive)} reaches ${card} in 1–2 business days.`;
}

/**
 * "Withdraw $X" on My Account: the available balance after clawbacks, once it reaches the payout
 * minimum; the confirmation names the amount, Stripe's instant fee (where the card takes instant
 * payouts) and the card's last four; one request at a time (the server answers a second in words).
 */
export function WithdrawPanel() {
  const { call, userProfile } = useAuth();
  const queryClient = useQueryClient();
  const id = userProfile?.id ?? '';
  const quote = useQuery({
    queryKey: ['withdrawal', 'quote', id],
    queryFn: (): Promise<WithdrawalQuote> => call('getWithdrawalQuote', {}),
    enabled: Boolean(id),
  });
  const [requestId, setRequestId] = useState<string | null>(null);
  // The figures the member confirms: kept while the dialog is open, whatever the quote reads meanwhile.
  const [confirming, setConfirming] = useState<WithdrawalQuote | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const arrivesId = useId();

  const withdraw = async (terms: WithdrawalQuote) => {
    if (!requestId || busy) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await call('withdraw', { requestId, receive: terms.receive, fee: terms.fee });
      const paid = answer.outcome;
      const card = terms.card ? ` ending ${terms.card.last4}` : '';
      // The answer's words: why instant was not available, and when a standard payout is expected.
      const unavailable = /Instant payouts are not available .*?no fee\./.exec(paid.message)?.[0];
      const expected = /expected ([A-Z][a-z]+ \d{1,2}, \d{4})/.exec(paid.message)?.[1];
      setDone(
        paid.method === 'instant'
          ? `Withdrew ${money(paid.payout)} to your card${card}: an instant payout (Stripe's fee ${money(paid.fee)}), there in minutes.`
          : unavailable
            ? `Withdrew ${money(paid.payout)} to your card${card}. ${unavailable}`
            : `Withdrew ${money(paid.payout)} to your card${card}: a standard payout, on its way${expected ? `, expected ${expected}` : ', there in 1–2 business days'}.`,
      );
      setRequestId(null);
      setConfirming(null);
    } catch (caught) {
      setError(toApiError(caught).message);
    } finally {
      setBusy(false);
      void queryClient.invalidateQueries({ queryKey: ['withdrawal'] });
      void queryClient.invalidateQueries({ queryKey: ['commissions'] });
    }
  };

  if (quote.isPending) {
    return (
      <p className="withdraw__status" aria-busy="true">
        Reading your available balance…
      </p>
    );
  }
  if (quote.isError) {
    return (
      <p className="withdraw__status" role="alert">
        Your available balance could not be read: {toApiError(quote.error).message}{' '}
        <button type="button" className="button button--ghost button--small" onClick={() => void quote.refetch()}>
          Try again
        </button>
      </p>
    );
  }
  const terms = quote.data;
  const shown = confirming ?? terms;
  return (
    <div className="withdraw">
      {terms.failedPayout ? (
        <div className="callout callout--alert withdraw__failed" role="alert" data-testid="payout-failed-banner">
          <div className="callout__text">
            <p className="callout__title">Your payout of {money(terms.failedPayout.amount)} failed</p>
            <p className="callout__body">
              Why: {terms.failedPayout.reason}. The money is back in your balance, waiting to be paid. Replace your
              card, then withdraw it, or it goes with the next daily payout.
            </p>
          </div>
          <Link className="button button--primary button--small" to="/my_account/payout_methods">
            Replace your card
          </Link>
        </div>
      ) : null}
      <p className="withdraw__balance">
        Available to withdraw: <strong data-testid="withdraw-available">{money(terms.available)}</strong>
        <span className="withdraw__hint"> (from {money(terms.minimum)})</span>
      </p>
      {terms.pending.length ? (
        <ul className="withdraw__pending plain-list" aria-label="Pending at Stripe" data-testid="withdraw-pending">
          {terms.pending.map((entry) => (
            <li key={entry.availableOn ?? 'unknown'}>
              {entry.availableOn
                ? `${money(entry.amount)} becomes available on ${shortDay(entry.availableOn)}`
                : `${money(entry.amount)} is still pending at Stripe`}
            </li>
          ))}
        </ul>
      ) : null}
      {terms.owed > 0 ? (
        <p className="withdraw__owed" data-testid="withdraw-owed">
          You owe <strong>{money(terms.owed)}</strong> from a refunded sale; it comes off your next payouts.
          {terms.owedNetted
            ? terms.owedNetted >= terms.owed
              ? ' The available figure is after it.'
              : ` The available figure is after ${money(terms.owedNetted)} of it.`
            : ''}
        </p>
      ) : null}
      {done ? (
        <p className="withdraw__done" role="status">
          {done}
        </p>
      ) : null}
      {terms.canWithdraw ? (
        <div className="withdraw__action">
          <button
            type="button"
            className="button button--primary"
            aria-describedby={arrivesId}
            onClick={() => {
              setError(null);
              setDone(null);
              setConfirming(terms);
              setRequestId(crypto.randomUUID());
            }}
          >
            Withdraw {money(terms.available)}
          </button>
          <p className="withdraw__arrives" id={arrivesId} data-testid="withdraw-arrives">
            {arrivalWords(terms)}
          </p>
        </div>
      ) : (
        <p className="withdraw__reason">{terms.reason}</p>
      )}
      <ConfirmDialog
        open={requestId !== null}
        title={`Withdraw ${money(shown.available)}?`}
        figures={[
          { label: 'Available balance', value: money(shown.available) },
          ...(shown.method === 'instant'
            ? [
                {
                  label: shown.feePaidBy === 'member' ? 'Stripe instant fee (you pay)' : 'Stripe instant fee (we pay)',
                  value: money(shown.fee),
                },
              ]
            : []),
          { label: 'To your card', value: money(shown.receive) },
        ]}
        confirmLabel={`Withdraw ${money(shown.available)}`}
        busyLabel="Withdrawing…"
        busy={busy}
        error={error}
        onConfirm={() => void withdraw(shown)}
        onCancel={() => {
          setRequestId(null);
          setConfirming(null);
        }}
      >
        <p>
          {shown.method === 'instant'
            ? `Instant payout to your ${shown.card?.brand ?? 'debit'} card ending ${shown.card?.last4 ?? '····'}: it arrives in minutes.`
            : `Standard payout to your ${shown.card?.brand ?? 'debit'} card ending ${shown.card?.last4 ?? '····'}: it arrives in 1–2 business days, free.`}
        </p>
        {terms.note ? <p className="withdraw__note">{terms.note}</p> : null}
      </ConfirmDialog>
    </div>
  );
}
