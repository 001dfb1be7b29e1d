import { Link } from 'react-router-dom';
import { useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import { EmptyState } from '@portal/shared/ui/components/EmptyState';
import { ReceiptIcon, WalletIcon } from '@portal/shared/ui/components/icons';
import { Page } from '@portal/shared/ui/components/Page';
import { CommissionTable } from '../commissions/CommissionTable';
import { CommissionTotals } from '../commissions/CommissionTotals';
import { useMyCommissions } from '../commissions/useMyCommissions';
import { BackLink } from '@portal/shared/ui/components/BackLink';
import { payoutAccountView } from './requirements';
import './payouts.css';

/** '/my_account/payout_account': the prompt to create one, or the totals and the member's own commission table. */
export function PayoutAccountScreen() {
  const { userProfile } = useAuth();
  const created = userProfile?.isAccountCreated === 1;
  return (
    <Page title="Payout Account" actions={<BackLink to="/my_account" />}>
      {created ? (
        <>
          <AccountStatus />
          <MyCommissions />
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

/** "Verifying" while Stripe checks the account, or what it still needs, in words. */
function AccountStatus() {
  const { userProfile } = useAuth();
  const view = payoutAccountView(userProfile?.payoutAccount, userProfile?.isPayoutMethodAdded === 1);
  if (view.kind === 'verifying') {
    return (
      <section className="payout-status" role="status" aria-labelledby="payout-status">
        <h2 className="section-title" id="payout-status">
          Verifying
        </h2>
        <p>
          Stripe is verifying your details. This usually takes a few minutes; your commissions are sent once it is done.
        </p>
      </section>
    );
  }
  if (view.kind === 'needs') {
    return (
      <section className="payout-status" role="alert" aria-labelledby="payout-status">
        <h2 className="section-title" id="payout-status">
          Stripe needs more from you
        </h2>
        <ul>
          {view.sentences.map((sentence) => (
            <li key={sentence}>{sentence}</li>
          ))}
        </ul>
      </section>
    );
  }
  return null;
}

/** The totals and the member's own commissions, newest first. */
function MyCommissions() {
  const commissions = useMyCommissions();
  const totals = commissions.data?.pages[0]?.totals;
  const items = commissions.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <>
      <CommissionTotals
        totals={totals}
        pending={commissions.isPending}
        error={commissions.isError ? commissions.error.message : null}
        onRetry={() => void commissions.refetch()}
        retrying={commissions.isFetching}
      />
      {commissions.isSuccess ? (
        <section aria-labelledby="commission-list">
          <h2 className="section-title" id="commission-list">
            Commissions
          </h2>
          {items.length === 0 ? (
            <EmptyState icon={<ReceiptIcon />} title="No commissions yet.">
              <p>When a customer orders a product you shared, the commission appears here with its status.</p>
            </EmptyState>
          ) : (
            <CommissionTable
              items={items}
              hasMore={commissions.hasNextPage}
              loadingMore={commissions.isFetchingNextPage}
              onLoadMore={() => void commissions.fetchNextPage()}
            />
          )}
        </section>
      ) : null}
    </>
  );
}
