import { formatMoney } from '@portal/shared/domain/format';
import { EmailText } from '@portal/shared/ui/components/EmailText';
import { toApiError } from '@portal/shared/ui/hooks/AuthProvider';
import { useMemberDebts } from './queries';

const cents = (dollars: number) => Math.round(dollars * 100);

/**
 * '/admin/payouts': what each member still owes after clawbacks (a refund of a sale whose
 * commission was already paid out), which comes off their next payouts before anything is paid.
 */
export function MemberDebts() {
  const debts = useMemberDebts();
  return (
    <section className="member-debts" aria-labelledby="member-debts-heading">
      <h2 className="sales-section-title" id="member-debts-heading">
        Owed from refunds
      </h2>
      {debts.isPending ? (
        <p aria-busy="true">Reading what members owe…</p>
      ) : debts.isError ? (
        <p role="alert">
          What members owe could not be read: {toApiError(debts.error).message}{' '}
          <button type="button" className="button button--ghost button--small" onClick={() => void debts.refetch()}>
            Try again
          </button>
        </p>
      ) : debts.data.length === 0 ? (
        <p data-testid="member-debts-none">No member owes anything from refunds.</p>
      ) : (
        <>
          <p className="member-debts__lead">
            A refund after a commission was paid out is owed by the member: it comes off their next payouts (Send all,
            Pay all, the daily payouts or their withdrawal) before anything is paid.
          </p>
          <ul className="member-debts__list plain-list" data-testid="member-debts">
            {debts.data.map((debt) => (
              <li key={debt.member.id} className="member-debts__item">
                <EmailText email={debt.member.email} />
                <span className="member-debts__owed">owes {formatMoney(cents(debt.owed))}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
