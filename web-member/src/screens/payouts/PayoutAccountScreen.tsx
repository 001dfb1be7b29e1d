import { Link } from 'react-router-dom';
import { useAuth } from '@portal/shared/ui/AuthProvider';
import { EmptyState } from '@portal/shared/ui/EmptyState';
import { ReceiptIcon, WalletIcon } from '@portal/shared/ui/icons';
import { Page } from '@portal/shared/ui/Page';
import { formatMoney } from '@portal/shared/domain/format';
import { BackLink } from './BackLink';
import './payouts.css';

/** '/my_account/payout_account': the prompt to create one, or the commissions made (the sales issue fills the table). */
export function PayoutAccountScreen() {
  const { userProfile } = useAuth();
  const created = userProfile?.isAccountCreated === 1;
  return (
    <Page title="Payout Account" actions={<BackLink to="/my_account" />}>
      {created ? (
        <>
          <section className="card payout-total" aria-labelledby="commissions-total">
            <h2 className="payout-total__label" id="commissions-total">
              Commissions You Made
            </h2>
            <p className="payout-total__amount">{formatMoney(0)}</p>
          </section>
          <section aria-labelledby="commission-list">
            <h2 className="section-title" id="commission-list">
              Commissions
            </h2>
            <EmptyState icon={<ReceiptIcon />} title="No commissions yet.">
              <p>When a customer orders a product you shared, the commission appears here with its status.</p>
            </EmptyState>
          </section>
        </>
      ) : (
        <EmptyState
          icon={<WalletIcon />}
          title="Create your payout account to get paid"
          action={
            <Link className="button button--primary" to="/my_account/create_payout_account">
              Create payout account
            </Link>
          }
        >
          <p>We pay your commissions through Stripe to your debit card. It takes a few minutes.</p>
        </EmptyState>
      )}
    </Page>
  );
}
