import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { WithdrawalQuote } from '@portal/shared/api/payout-batches';
import { formatMoney } from '@portal/shared/domain/format';
import { toApiError, useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import { ConfirmDialog } from '@portal/shared/ui/components/ConfirmDialog';
import { centsOf } from './useMyCommissions';
import './commissions.css';

const money = (dollars: number) => formatMoney(centsOf(dollars));

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
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

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
  return (
    <div className="withdraw">
      <p className="withdraw__balance">
        Available to withdraw: <strong data-testid="withdraw-available">{money(terms.available)}</strong>
        <span className="withdraw__hint"> (from {money(terms.minimum)})</span>
      </p>
      {done ? (
        <p className="withdraw__done" role="status">
          {done}
        </p>
      ) : null}
      {terms.canWithdraw ? (
        <button
          type="button"
          className="button button--primary"
          onClick={() => {
            setError(null);
            setDone(null);
            setRequestId(crypto.randomUUID());
          }}
        >
          Withdraw {money(terms.receive)}
        </button>
      ) : (
        <p className="withdraw__reason">{terms.reason}</p>
      )}
      <ConfirmDialog
        open={requestId !== null}
        title={`Withdraw ${money(terms.receive)}?`}
        figures={[
          { label: 'Available balance', value: money(terms.available) },
          ...(terms.method === 'instant'
            ? [
                {
                  label: terms.feePaidBy === 'member' ? 'Stripe instant fee (you pay)' : 'Stripe instant fee (we pay)',
                  value: money(terms.fee),
                },
              ]
            : []),
          { label: 'To your card', value: money(terms.receive) },
        ]}
        confirmLabel={`Withdraw ${money(terms.receive)}`}
        busyLabel="Withdrawing…"
        busy={busy}
        error={error}
        onConfirm={() => void withdraw(terms)}
        onCancel={() => setRequestId(null)}
      >
        <p>
          {terms.method === 'instant'
            ? `Instant payout to your ${terms.card?.brand ?? 'debit'} card ending ${terms.card?.last4 ?? '····'}: it arrives in minutes.`
            : `Standard payout to your ${terms.card?.brand ?? 'debit'} card ending ${terms.card?.last4 ?? '····'}: it arrives in 1–2 business days, free.`}
        </p>
        {terms.note ? <p className="withdraw__note">{terms.note}</p> : null}
      </ConfirmDialog>
    </div>
  );
}
