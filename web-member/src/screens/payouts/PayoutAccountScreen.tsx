import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import { EmptyState } from '@portal/shared/ui/components/EmptyState';
import { ReceiptIcon, WalletIcon } from '@portal/shared/ui/components/icons';
import { Page } from '@portal/shared/ui/components/Page';
import { CommissionTable } from '../commissions/CommissionTable';
import { CommissionTotals } from '../commissions/CommissionTotals';
import { useMyCommissions } from '../commissions/useMyCommissions';
import { BackLink } from '@portal/shared/ui/components/BackLink';
import { CorrectDetailsForm } from './CorrectDetailsForm';
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

/** While Stripe verifies, the account's state is read again this often (account.updated keeps it). */
const VERIFYING_POLL_MS = 5_000;

/**
 * The account's state in words (issue 34): Verifying while Stripe checks it, Ready once it can be
 * paid, or Needs attention with what Stripe could not verify and a form to correct it. The state
 * is read when the screen opens and, while Verifying, every few seconds, so the answer of Stripe's
 * check shows without a reload.
 */
function AccountStatus() {
  const { userProfile, call, setUserProfile } = useAuth();
  const cardAdded = userProfile?.isPayoutMethodAdded === 1;
  const view = payoutAccountView(userProfile?.payoutAccount, cardAdded);
  useQuery({
    queryKey: ['payoutAccount', userProfile?.id],
    queryFn: async () => {
      const answer = await call('getPayoutAccount', {});
      setUserProfile(answer.user);
      return answer.user.payoutAccount ?? null;
    },
    enabled: Boolean(userProfile?.id),
    refetchInterval: view.kind === 'verifying' ? VERIFYING_POLL_MS : false,
  });
  if (view.kind === 'verifying') {
    return (
      <section className="payout-status payout-status--verifying" role="status" aria-labelledby="payout-status">
        <h2 className="section-title" id="payout-status">
          Verifying
        </h2>
        <p>
          Stripe is verifying your details. This usually takes a few minutes; this page updates by itself, and your
          commissions are sent once it is done.
        </p>
      </section>
    );
  }
  if (view.kind === 'needs') {
    return (
      <section className="payout-status payout-status--needs" aria-labelledby="payout-status">
        <h2 className="section-title" id="payout-status">
          Needs attention
        </h2>
        <div role="alert">
          <p>Stripe could not verify your payout account, so you cannot be paid yet:</p>
          <ul>
            {view.sentences.map((sentence) => (
              <li key={sentence}>{sentence}</li>
            ))}
          </ul>
        </div>
        {view.groups.length ? (
          <CorrectDetailsForm groups={view.groups} />
        ) : view.sentences.some((sentence) => sentence.includes('debit card')) ? (
          <Link className="button button--primary" to="/my_account/payout_methods">
            Add a debit card
          </Link>
        ) : null}
      </section>
    );
  }
  return (
    <section className="payout-status payout-status--ready" role="status" aria-labelledby="payout-status">
      <h2 className="section-title" id="payout-status">
        Ready
      </h2>
      <p>
        {cardAdded
          ? 'Stripe verified your details: your commissions are paid to your debit card.'
          : 'Stripe verified your details. Add a debit card to be paid.'}
      </p>
    </section>
  );
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
