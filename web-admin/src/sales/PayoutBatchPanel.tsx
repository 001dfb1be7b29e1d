import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import type { BatchOutcome } from '@portal/shared/api/payout-batches';
import type { Commission } from '@portal/shared/api/sales';
import { formatMoney } from '@portal/shared/domain/format';
import { queryKeys } from '@portal/shared/query/keys';
import { toApiError, useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import { ConfirmDialog } from '@portal/shared/ui/components/ConfirmDialog';
import { useCommissions } from './queries';

const cents = (dollars: number) => Math.round(dollars * 100);
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

interface MemberTotal {
  id: string;
  email: string;
  count: number;
  cents: number;
}

const STEPS = {
  send: {
    heading: 'Send all available',
    lead: 'One transfer per member to their Stripe balance, carrying every available commission (clawback debts are netted).',
    button: 'Send all available',
    busy: 'Sending…',
    confirm: 'Send',
  },
  pay: {
    heading: 'Pay all',
    lead: 'One transfer and one payout per member: everything available is sent and paid out to their debit card (clawback debts are netted).',
    button: 'Pay all',
    busy: 'Paying…',
    confirm: 'Pay',
  },
} as const;

/** The members the loaded rows name, with what can move for each (rows a reason blocks are left out). */
function membersOf(rows: readonly Commission[]): MemberTotal[] {
  const byMember = new Map<string, MemberTotal>();
  for (const row of rows) {
    if (row.blockedReason !== null) continue;
    const total = byMember.get(row.member.id) ?? { id: row.member.id, email: row.member.email, count: 0, cents: 0 };
    total.count++;
    total.cents += cents(row.amount);
    byMember.set(row.member.id, total);
  }
  return [...byMember.values()].sort((a, b) => a.email.localeCompare(b.email));
}

/**
 * "Send all available" (To Stripe) and "Pay all" (To Be Payed), for one member or everyone: a
 * confirmation naming the amount and the members first, then `/api/runPayoutBatch` with a request
 * id made when the confirmation opened (a retry continues the same batch), then what happened for
 * each member, in words.
 */
export function PayoutBatchPanel({ step }: { step: 'send' | 'pay' }) {
  const config = STEPS[step];
  const { call } = useAuth();
  const queryClient = useQueryClient();
  const toStripe = useCommissions('to_stripe');
  const toBePaid = useCommissions('to_be_paid');
  const rows = useMemo(() => {
    const pages = [...(toStripe.data?.pages ?? []), ...(step === 'pay' ? (toBePaid.data?.pages ?? []) : [])];
    return pages.flatMap((page) => page.items);
  }, [toStripe.data, toBePaid.data, step]);
  const members = useMemo(() => membersOf(rows), [rows]);
  const [memberId, setMemberId] = useState('');
  const [requestId, setRequestId] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<{ message: string; outcomes: BatchOutcome[] } | null>(null);
  const selectId = useId();

  const chosen = members.filter((member) => !memberId || member.id === memberId);
  const total = chosen.reduce((sum, member) => sum + member.cents, 0);
  const count = chosen.reduce((sum, member) => sum + member.count, 0);
  const loading = toStripe.isPending || (step === 'pay' && toBePaid.isPending);

  const open = () => {
    setError(null);
    setResult(null);
    setRequestId(crypto.randomUUID());
  };
  const run = async () => {
    if (!requestId || busy) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await call('runPayoutBatch', { step, requestId, ...(memberId ? { memberId } : {}) });
      setResult({ message: answer.message, outcomes: answer.outcomes });
      setRequestId(null);
      await queryClient.invalidateQueries({ queryKey: queryKeys.payouts.all });
    } catch (caught) {
      setError(toApiError(caught).message);
    } finally {
      setBusy(false);
    }
  };

  const who = memberId ? (chosen[0]?.email ?? 'this member') : plural(chosen.length, 'member');
  // "Pay all" for one member names their debit card: read when the confirmation opens.
  const naming = step === 'pay' && memberId !== '' && requestId !== null;
  const card = useQuery({
    queryKey: queryKeys.payouts.memberCard(memberId),
    queryFn: () => call('getMemberPayoutCard', { memberId }),
    enabled: naming,
    staleTime: 60_000,
  });
  const cardWords = card.data?.card ? `${card.data.card.brand} ending ${card.data.card.last4}` : null;
  return (
    <section className="payout-batch" aria-labelledby={`${selectId}-heading`}>
      <h2 className="sales-section-title" id={`${selectId}-heading`}>
        {config.heading}
      </h2>
      <p>{config.lead}</p>
      <div className="payout-batch__row">
        <div className="field">
          <label className="field__label" htmlFor={selectId}>
            Member
          </label>
          <select
            id={selectId}
            className="field__input"
            value={memberId}
            onChange={(event) => setMemberId(event.target.value)}
            disabled={busy}
          >
            <option value="">Everyone ({plural(members.length, 'member')})</option>
            {members.map((member) => (
              <option key={member.id} value={member.id}>
                {member.email} ({formatMoney(member.cents)})
              </option>
            ))}
          </select>
        </div>
        <button
          type="button"
          className="button button--primary"
          onClick={open}
          disabled={loading || busy || members.length === 0}
        >
          {config.button}
        </button>
      </div>
      {!loading && members.length === 0 ? <p>No commission can move right now.</p> : null}
      {result ? (
        <div role="status">
          <p>{result.message}</p>
          <ul className="payout-batch__outcomes">
            {result.outcomes.map((outcome) => (
              <li key={`${outcome.batchId}-${outcome.memberId}`}>{outcome.message}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <ConfirmDialog
        open={requestId !== null}
        title={`${config.heading}: ${formatMoney(total)}?`}
        figures={[
          { label: 'Members', value: String(chosen.length) },
          { label: 'Commissions', value: String(count) },
          ...(naming ? [{ label: 'Card', value: cardWords ?? '—' }] : []),
          { label: 'Amount', value: formatMoney(total) },
        ]}
        confirmDisabled={naming && !cardWords}
        confirmLabel={`${config.confirm} ${formatMoney(total)}`}
        busyLabel={config.busy}
        busy={busy}
        error={error}
        onConfirm={() => void run()}
        onCancel={() => setRequestId(null)}
      >
        <p>
          {step === 'send'
            ? `${formatMoney(total)} goes to the Stripe balance of ${who}, one transfer per sale.`
            : naming
              ? `${formatMoney(total)} is paid out to ${who}’s ${cardWords ? `debit card ending ${card.data!.card!.last4}` : 'debit card'}, one transfer per sale and one payout.`
              : `${formatMoney(total)} is paid out to the debit card of ${who}, one transfer per sale and one payout each.`}{' '}
          A member’s clawback debt is taken from it first; the result says what moved.
        </p>
        {naming && card.isPending ? <p role="status">Looking up {who}’s debit card…</p> : null}
        {naming && card.isError ? (
          <p role="alert">
            The member’s debit card could not be read ({toApiError(card.error).message}): cancel and try again.
          </p>
        ) : null}
        {naming && card.data && !card.data.card ? (
          <p role="alert">{who} has no debit card at Stripe to pay out to: ask them to add one.</p>
        ) : null}
      </ConfirmDialog>
    </section>
  );
}
