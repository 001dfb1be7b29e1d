import { Link } from 'react-router-dom';
import { ATTENTION_REASONS } from '@portal/shared/domain/attention';
import { useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import { AttentionWords } from '@portal/shared/ui/components/Badge';
import { EmptyState } from '@portal/shared/ui/components/EmptyState';
import { ArrowLeftIcon, ChevronRightIcon, LockIcon, ReceiptIcon, WalletIcon } from '@portal/shared/ui/components/icons';
import { Page } from '@portal/shared/ui/components/Page';
import type { ReactNode } from 'react';
import { CommissionTotals } from './commissions/CommissionTotals';
import { useMyCommissions } from './commissions/useMyCommissions';
import { MailPreferencesForm } from './MailPreferencesForm';
import { MyDiscountCodes } from './MyDiscountCodes';
import { MyLinkStatistics } from './MyLinkStatistics';
import { WithdrawPanel } from './commissions/WithdrawPanel';
import { payoutAccountView } from './payouts/requirements';

/** The red badge's words on the payout account's card while Stripe needs details corrected. */
const NEEDS_ATTENTION = 'Correct your details';

/** '/my_account': the three set-up screens (spec section 2), their red badges, and the commission totals. */
export function MyAccountScreen() {
  const { userProfile } = useAuth();
  const accountCreated = userProfile?.isAccountCreated === 1;
  const methodAdded = userProfile?.isPayoutMethodAdded === 1;
  const account = accountCreated ? payoutAccountView(userProfile?.payoutAccount, methodAdded) : null;
  return (
    <Page
      title="My Account"
      description={userProfile ? `Logged in as ${userProfile.email}` : undefined}
      actions={
        <Link className="button button--ghost button--small back-link" to="/">
          <ArrowLeftIcon className="button__icon" aria-hidden="true" />
          Back
        </Link>
      }
    >
      <nav aria-label="My account">
        <ul className="card-grid card-grid--3 plain-list account-links">
          <AccountLink
            to="/my_account/payout_account"
            title="Payout Account"
            icon={<WalletIcon />}
            text={
              !account
                ? 'Where your commissions are paid from.'
                : account.kind === 'verifying'
                  ? 'Verifying: Stripe is checking your details.'
                  : account.kind === 'needs'
                    ? 'Needs attention: Stripe could not verify your details. Correct them here.'
                    : 'Ready: see the commissions you made.'
            }
            reasons={!account ? [ATTENTION_REASONS.account] : account.kind === 'needs' ? [NEEDS_ATTENTION] : []}
          />
          <AccountLink
            to="/my_account/payout_methods"
            title="Payout Methods"
            icon={<ReceiptIcon />}
            text={methodAdded ? 'Your debit card is added.' : 'The debit card your commissions go to.'}
            reasons={methodAdded ? [] : [ATTENTION_REASONS.method]}
          />
          <AccountLink
            to="/my_account/my_profile"
            title="My Profile"
            icon={<LockIcon />}
            text="Your e-mail, name, phone and address."
            reasons={[]}
          />
        </ul>
      </nav>
      <section aria-labelledby="commissions" className="account-commissions">
        <h2 className="section-title" id="commissions">
          Commissions
        </h2>
        <MyCommissionTotals />
      </section>
      <section aria-labelledby="withdraw" className="account-withdraw">
        <h2 className="section-title" id="withdraw">
          Withdraw
        </h2>
        <WithdrawPanel />
      </section>
      <section aria-labelledby="links" className="account-links-statistics">
        <h2 className="section-title" id="links">
          Your links
        </h2>
        <MyLinkStatistics />
      </section>
      <section aria-labelledby="discount-codes" className="account-codes-section">
        <h2 className="section-title" id="discount-codes">
          Discount codes
        </h2>
        <MyDiscountCodes />
      </section>
      <section aria-labelledby="emails" className="account-emails">
        <h2 className="section-title" id="emails">
          E-mails
        </h2>
        <MailPreferencesForm />
      </section>
    </Page>
  );
}

function AccountLink({
  to,
  title,
  icon,
  text,
  reasons,
}: {
  to: string;
  title: string;
  icon: ReactNode;
  text: string;
  /** What to do there: the red badge's words (none when done). */
  reasons: readonly string[];
}) {
  return (
    <li>
      <Link className="card nav-card" to={to} data-testid={`account-link-${to.split('/').pop()}`}>
        <span className="nav-card__icon" aria-hidden="true">
          {icon}
        </span>
        <span className="nav-card__title">
          {title}
          <ChevronRightIcon aria-hidden="true" />
        </span>
        <AttentionWords reasons={reasons} data-testid={`todo-${title.toLowerCase().replaceAll(' ', '-')}`} />
        <span className="nav-card__text">{text}</span>
      </Link>
    </li>
  );
}

/** The two totals of the member's commissions, and a word on how they come while there are none. */
function MyCommissionTotals() {
  const commissions = useMyCommissions();
  const totals = commissions.data?.pages[0]?.totals;
  return (
    <>
      <CommissionTotals
        totals={totals}
        pending={commissions.isPending}
        error={commissions.isError ? commissions.error.message : null}
        onRetry={() => void commissions.refetch()}
        retrying={commissions.isFetching}
      />
      {totals && totals.count === 0 ? (
        <EmptyState icon={<ReceiptIcon />} title="No commissions yet.">
          <p>
            When a customer orders a product you shared, your commission appears here: first in processing, then paid.
          </p>
        </EmptyState>
      ) : null}
    </>
  );
}
