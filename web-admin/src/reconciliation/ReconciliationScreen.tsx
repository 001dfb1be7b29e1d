import { useRef, useState, type FormEvent, type Ref } from 'react';
import type { ResponseOf } from '@portal/shared/api/contract';
import { RECONCILE_MAX_DAYS, dayBefore } from '@portal/shared/api/reconcile-period';
import { EmptyState } from '@portal/shared/ui/components/EmptyState';
import { ErrorBanner } from '@portal/shared/ui/components/ErrorBanner';
import { FormField } from '@portal/shared/ui/components/FormField';
import { CheckIcon } from '@portal/shared/ui/components/icons';
import { Loading } from '@portal/shared/ui/components/Loading';
import { Page } from '@portal/shared/ui/components/Page';
import { toApiError, useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import './reconciliation.css';

type Result = ResponseOf<'reconcile'>;
type Difference = Result['differences'][number];
type Field = 'from' | 'to';

/** The default period: the last 30 days, today included. */
const DEFAULT_DAYS = 30;

const SUBJECT: Record<Difference['subject'], string> = {
  charge: 'Charge',
  refund: 'Refund',
  transfer: 'Transfer',
  reversal: 'Transfer reversal',
  payout: 'Payout',
};
const KIND: Record<Difference['kind'], string> = {
  missing_in_ledger: 'in Stripe only',
  missing_in_stripe: 'in our ledger only',
  amount: 'amounts differ',
  status: 'states differ',
};

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/**
 * '/admin/reconciliation': our ledger against Stripe's over a period (the `reconcile` call):
 * every difference in words, with Stripe's ids and ours. A period is whole UTC days, both ends
 * included; a bad one is answered at its field.
 */
export function ReconciliationScreen() {
  const { call } = useAuth();
  const [period, setPeriod] = useState(() => ({
    from: dayBefore(Date.now(), DEFAULT_DAYS - 1),
    to: dayBefore(Date.now(), 0),
  }));
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const resultRef = useRef<HTMLHeadingElement>(null);

  const change = (field: Field) => (event: { target: { value: string } }) => {
    setPeriod((current) => ({ ...current, [field]: event.target.value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const run = async (event?: FormEvent) => {
    event?.preventDefault();
    if (busy) return;
    setBusy(true);
    setProblem(null);
    setErrors({});
    try {
      const answer = await call('reconcile', { from: period.from, to: period.to });
      setResult(answer);
      // The result is announced by its heading: move there, so a keyboard user reads on from it.
      requestAnimationFrame(() => resultRef.current?.focus());
    } catch (caught) {
      const apiError = toApiError(caught);
      const byField: Partial<Record<Field, string>> = {};
      for (const [path, message] of Object.entries(apiError.fields ?? {})) {
        if (path === 'from' || path === 'to') byField[path] = message;
      }
      setErrors(byField);
      const first = (['from', 'to'] as const).find((field) => byField[field]);
      if (first) formRef.current?.querySelector<HTMLInputElement>(`[name="${first}"]`)?.focus();
      else setProblem(apiError.message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Page
      title="Reconciliation"
      description="Compare our ledger with Stripe’s over a period: card payments, refunds, transfers to the members and their reversals, and the members’ payouts."
    >
      <form ref={formRef} className="card form reconcile-form" onSubmit={run} noValidate aria-label="Period to compare">
        <div className="reconcile-form__fields">
          <FormField
            label="From"
            name="from"
            type="date"
            value={period.from}
            onChange={change('from')}
            error={errors.from}
            required
          />
          <FormField
            label="To"
            name="to"
            type="date"
            value={period.to}
            onChange={change('to')}
            error={errors.to}
            required
          />
        </div>
        <p className="field__hint">Whole days in UTC, both included; at most {RECONCILE_MAX_DAYS} days.</p>
        <div className="reconcile-form__actions">
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? 'Comparing…' : 'Run'}
          </button>
        </div>
      </form>

      {problem ? (
        <ErrorBanner title="The comparison did not run" message={problem} onRetry={() => void run()} retrying={busy} />
      ) : null}
      {busy ? <Loading label="Reading Stripe and our ledger…" /> : null}
      {!busy && result ? <ReconcileResult result={result} headingRef={resultRef} /> : null}
    </Page>
  );
}

function ReconcileResult({ result, headingRef }: { result: Result; headingRef: Ref<HTMLHeadingElement> }) {
  const { checked, differences } = result;
  const compared =
    `Compared ${plural(checked.charges, 'charge')}, ${plural(checked.refunds, 'refund')}, ` +
    `${plural(checked.transfers, 'transfer')} with ${plural(checked.reversals, 'reversal')}, ` +
    `${plural(checked.payouts, 'payout')} on ${plural(checked.accounts, 'connected account')}, ` +
    `${plural(checked.orders, 'order')} and ${plural(checked.commissions, 'commission')}.`;
  return (
    <section className="reconcile-result" aria-labelledby="reconcile-result-title">
      <h2 id="reconcile-result-title" className="reconcile-result__title" tabIndex={-1} ref={headingRef}>
        {result.from} to {result.to}
      </h2>
      <p className="reconcile-result__compared">{compared}</p>
      {differences.length === 0 ? (
        <EmptyState icon={<CheckIcon />} title="No differences">
          Our ledger and Stripe agree on every object of the period.
        </EmptyState>
      ) : (
        <>
          <p className="reconcile-result__count">
            <strong>{plural(differences.length, 'difference')}</strong>
          </p>
          <ol className="reconcile-list">
            {differences.map((difference, index) => (
              <li key={`${index}-${difference.stripeIds.join(',')}`} className="card reconcile-item">
                <p className="reconcile-item__what">
                  <span className={`reconcile-item__tag reconcile-item__tag--${difference.kind}`}>
                    {SUBJECT[difference.subject]}: {KIND[difference.kind]}
                  </span>
                </p>
                <p className="reconcile-item__text">{difference.text}</p>
                <dl className="reconcile-item__ids">
                  <div>
                    <dt>Stripe</dt>
                    <dd>{difference.stripeIds.length ? difference.stripeIds.join(', ') : 'nothing'}</dd>
                  </div>
                  <div>
                    <dt>Our ledger</dt>
                    <dd>{difference.ledgerIds.length ? difference.ledgerIds.join(', ') : 'nothing'}</dd>
                  </div>
                </dl>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
