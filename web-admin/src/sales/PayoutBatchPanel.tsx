import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import type { BatchOutcome } from '@portal/shared/api/payout-batches';
import type { Commission } from '@portal/shared/api/sales';
import { formatMoney } from '@portal/shared/domain/format';
import { queryKeys } from '@portal/shared/query/keys';
import { toApiError, useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import { ConfirmDialog } from '@portal/shared/ui/components/ConfirmDialog';
import { useCommissions, useMemberDebts } from './queries';

const cents = (dollars: number) => Math.round(dollars * 100);
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

interface MemberTotal {
  id: string;
  email: string;
  count: number;
  /** Commissions not sent yet (a batch nets the member's debt from these only). */
  processingCents: number;
  /** Commissions in the member's Stripe balance (a "Pay all" pays them out as they are). */
  inStripeCents: number;
  /** What the member owes from refunds after payout. */
  owedCents: number;
  /** What the batch would net of that debt: never more than the commissions not sent yet carry. */
  nettedCents: number;
  /** What would move: the commissions less what is netted. */
  netCents: number;
}

const STEPS = {
  send: {
    heading: 'Send all available',
    lead: 'One transfer per sale to each member’s Stripe balance, carrying every available commission, less what the member owes from refunds.',
    button: 'Send all available',
    busy: 'Sending…',
    confirm: 'Send',
  },
  pay: {
    heading: 'Pay all',
    lead: 'Everything available is sent and paid out to each member’s debit card (one transfer per sale and one payout), less what the member owes from refunds.',
    button: 'Pay all',
    busy: 'Paying…',
    confirm: 'Pay',
  },
} as const;

/**
 * The members the loaded rows name, with what can move for each (rows a reason blocks are left
 * out), netted as the server nets: the debt comes off the commissions not sent yet, never below 0.
 */
function membersOf(rows: readonly Commission[], owed: ReadonlyMap<string, number>): MemberTotal[] {
  const byMember = new Map<string, MemberTotal>();
  for (const row of rows) {
    if (row.blockedReason !== null) continue;
    const total = byMember.get(row.member.id) ?? {
      id: row.member.id,
      email: row.member.email,
      count: 0,
      processingCents: 0,
      inStripeCents: 0,
      owedCents: 0,
      nettedCents: 0,
      netCents: 0,
    };
    total.count++;
    if (row.state === 'in_stripe') total.inStripeCents += cents(row.amount);
    else total.processingCents += cents(row.amount);
    byMember.set(row.member.id, total);
  }
  for (const total of byMember.values()) {
    total.owedCents = owed.get(total.id) ?? 0;
    total.nettedCents = Math.min(total.owedCents, total.processingCents);
    total.netCents = total.processingCents + total.inStripeCents - total.nettedCents;
  }
  return [...byMember.values()].sort((a, b) => a.email.localeCompare(b.email));
}

/** A "Nothing to send for …" outcome that says no more than that (no pending funds, no reason). */
const plainlyEmpty = (outcome: BatchOutcome) =>
  outcome.state === 'empty' && !/becomes available|still pending/.test(outcome.message);

/**
 * What a batch did, each thing once: one member's outcome alone; for everyone, the summary, each
 * member that moved or needs attention, and the members with nothing to move in one line.
 */
export function resultLines(
  step: 'send' | 'pay',
  answer: { message: string; outcomes: readonly BatchOutcome[] },
  oneMember: boolean,
): { summary: string | null; lines: string[] } {
  if (oneMember && answer.outcomes.length === 1) return { summary: null, lines: [answer.outcomes[0]!.message] };
  const empty = answer.outcomes.filter(plainlyEmpty);
  const lines = answer.outcomes.filter((outcome) => !plainlyEmpty(outcome)).map((outcome) => outcome.message);
  if (empty.length) {
    lines.push(
      `Nothing to ${step} now for ${empty.length === 1 ? empty[0]!.memberEmail : `${plural(empty.length, 'member')} (${empty.map((o) => o.memberEmail).join(', ')})`}: no available commission that no other payout holds.`,
    );
  }
  return { summary: answer.message, lines };
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
  const debts = useMemberDebts();
  const rows = useMemo(() => {
    const pages = [...(toStripe.data?.pages ?? []), ...(step === 'pay' ? (toBePaid.data?.pages ?? []) : [])];
    return pages.flatMap((page) => page.items);
  }, [toStripe.data, toBePaid.data, step]);
  const owed = useMemo(
    () => new Map((debts.data ?? []).map((debt) => [debt.member.id, cents(debt.owed)] as const)),
    [debts.data],
  );
  const members = useMemo(() => membersOf(rows, owed), [rows, owed]);
  const [memberId, setMemberId] = useState('');
  const [requestId, setRequestId] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<{ summary: string | null; lines: string[] } | null>(null);
  const selectId = useId();

  const chosen = members.filter((member) => !memberId || member.id === memberId);
  const gross = chosen.reduce((sum, member) => sum + member.processingCents + member.inStripeCents, 0);
  const netted = chosen.reduce((sum, member) => sum + member.nettedCents, 0);
  const net = gross - netted;
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
      setResult(resultLines(step, answer, memberId !== ''));
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
  // The net amount, and where it comes from when a debt is netted.
  const less = netted ? ` (${formatMoney(gross)} in commissions, less ${formatMoney(netted)} owed from refunds)` : '';
  const where =
    step === 'send'
      ? memberId
        ? `${who}’s Stripe balance`
        : who
      : memberId
        ? `${who}’s ${cardWords ? `debit card ending ${card.data!.card!.last4}` : 'debit card'}`
        : `the debit cards of ${who}`;
  const sentence =
    net === 0
      ? `No money moves: ${formatMoney(gross)} in commissions settles ${formatMoney(netted)} ${memberId ? `${who} owes` : 'the members owe'} from refunds.`
      : `${config.confirm} ${formatMoney(net)} to ${where}${less}${step === 'send' ? ', one transfer per sale.' : `: one transfer per sale and one payout${memberId ? '' : ' each'}.`}`;
  const confirmLabel = net === 0 ? 'Settle' : `${config.confirm} ${formatMoney(net)}`;
  const offered = loading || members.length > 0;
  return (
    <section className="payout-batch" aria-labelledby={`${selectId}-heading`}>
      <h2 className="sales-section-title" id={`${selectId}-heading`}>
        {config.heading}
      </h2>
      <p>{config.lead}</p>
      {offered ? (
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
                  {member.email} ({formatMoney(member.netCents)}
                  {member.nettedCents ? `, after ${formatMoney(member.nettedCents)} owed` : ''})
                </option>
              ))}
            </select>
          </div>
          <button type="button" className="button button--primary" onClick={open} disabled={loading || busy}>
            {config.button}
          </button>
        </div>
      ) : (
        <p data-testid="payout-batch-none">No commission can move right now.</p>
      )}
      {result ? (
        <div role="status" className="payout-batch__result">
          {result.summary ? <p>{result.summary}</p> : null}
          {result.lines.length === 1 && !result.summary ? (
            <p>{result.lines[0]}</p>
          ) : (
            <ul className="payout-batch__outcomes">
              {result.lines.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          )}
        </div>
      ) : null}
      <ConfirmDialog
        open={requestId !== null}
        title={`${config.heading}: ${formatMoney(net)}?`}
        figures={[
          { label: 'Members', value: String(chosen.length) },
          { label: 'Commissions', value: String(count) },
          ...(naming ? [{ label: 'Card', value: cardWords ?? '—' }] : []),
          ...(netted
            ? [
                { label: 'In commissions', value: formatMoney(gross) },
                { label: 'Less owed from refunds', value: `−${formatMoney(netted)}` },
              ]
            : []),
          { label: step === 'send' ? 'To send' : 'To pay', value: formatMoney(net) },
        ]}
        confirmDisabled={(naming && !cardWords) || debts.isPending || debts.isError}
        confirmLabel={confirmLabel}
        busyLabel={config.busy}
        busy={busy}
        error={error}
        onConfirm={() => void run()}
        onCancel={() => setRequestId(null)}
      >
        <p>{sentence}</p>
        {step === 'pay' ? (
          <p>Funds Stripe still holds as pending wait for a later payout; the result says what moved.</p>
        ) : null}
        {debts.isPending ? <p role="status">Reading what the members owe from refunds…</p> : null}
        {debts.isError ? (
          <p role="alert">
            What the members owe could not be read ({toApiError(debts.error).message}): cancel and try again.
          </p>
        ) : null}
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
