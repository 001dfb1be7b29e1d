import type { CommissionTotals as Totals } from '@portal/shared/api/sales';
import { formatMoney } from '@portal/shared/domain/format';
import { ErrorBanner } from '@portal/shared/ui/components/ErrorBanner';
import { Loading } from '@portal/shared/ui/components/Loading';
import { centsOf } from './useMyCommissions';
import './commissions.css';

/** 'Commissions You Made' (paid) and 'Commissions in Processing' (not yet paid), in dollars and cents. */
export function CommissionTotals({
  totals,
  pending,
  error,
  onRetry,
  retrying,
}: {
  totals: Totals | undefined;
  pending: boolean;
  error: string | null;
  onRetry: () => void;
  retrying: boolean;
}) {
  if (error) {
    return (
      <ErrorBanner title="Your commissions could not be loaded" message={error} onRetry={onRetry} retrying={retrying} />
    );
  }
  if (pending || !totals) return <Loading label="Loading your commissions…" block={false} />;
  return (
    <div className="commission-totals">
      <section className="card commission-total" aria-labelledby="commissions-made">
        <h3 className="commission-total__label" id="commissions-made">
          Commissions You Made
        </h3>
        <p className="commission-total__amount" data-testid="commissions-paid">
          {formatMoney(centsOf(totals.paid))}
        </p>
      </section>
      <section className="card commission-total" aria-labelledby="commissions-processing">
        <h3 className="commission-total__label" id="commissions-processing">
          Commissions in Processing
        </h3>
        <p className="commission-total__amount" data-testid="commissions-processing">
          {formatMoney(centsOf(totals.processing))}
        </p>
      </section>
    </div>
  );
}
