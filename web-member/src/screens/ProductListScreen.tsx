import { Link } from 'react-router-dom';
import { useAuth } from '@portal/shared/ui/AuthProvider';
import { EmptyState } from '@portal/shared/ui/EmptyState';
import { BoxIcon } from '@portal/shared/ui/icons';
import { Page } from '@portal/shared/ui/Page';

/** '/': the member's product list. The catalogue itself arrives with a later issue. */
export function ProductListScreen() {
  const { needsAttention } = useAuth();
  return (
    <Page title="Product List" description="Approved products you can share, with what you make on every sale.">
      {needsAttention ? <PayoutSetupCallout /> : null}
      <EmptyState icon={<BoxIcon />} title="No products are available yet.">
        <p>
          Products appear here once the team approves them from the supplier’s catalogue, each with its retail price,
          sell price and what you make per item.
        </p>
      </EmptyState>
    </Page>
  );
}

function PayoutSetupCallout() {
  return (
    <section className="callout" aria-labelledby="payout-setup-title">
      <div className="callout__text">
        <h2 className="callout__title" id="payout-setup-title">
          Finish setting up your payouts
        </h2>
        <p className="callout__body">
          Create your payout account and add a payout method so that your commissions can be paid to you.
        </p>
      </div>
      <Link className="button button--secondary button--small" to="/my_account">
        Go to My Account
      </Link>
    </section>
  );
}
