import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { AdminSummary, BoundedCount } from '@portal/shared/api/admin';
import { formatMoney } from '@portal/shared/domain/format';
import { queryKeys } from '@portal/shared/query/keys';
import { useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import { BoxIcon, ChevronRightIcon, ReceiptIcon, UploadIcon, WalletIcon } from '@portal/shared/ui/components/icons';
import { ErrorBanner } from '@portal/shared/ui/components/ErrorBanner';
import { Loading } from '@portal/shared/ui/components/Loading';
import { Page } from '@portal/shared/ui/components/Page';
import { toApiError } from '@portal/shared/ui/hooks/AuthProvider';
import '../catalogue/catalogue.css';

/** '/admin/': the day's work, each figure linking to its list, then where the admin sections start. */
export function AdminHomeScreen() {
  return (
    <Page title="Admin" description="The supplier catalogue, customer orders and member commissions.">
      <TodaysWork />
      <nav aria-label="Admin sections">
        <ul className="card-grid card-grid--3 plain-list" role="list">
          <SectionCard to="/product_import" title="Product Import" icon={<UploadIcon />}>
            Supplier products imported from CSV, waiting for approval.
          </SectionCard>
          <SectionCard to="/catalogue" title="Catalogue" icon={<BoxIcon />}>
            Approved, banned and withdrawn products, with search.
          </SectionCard>
          <SectionCard to="/orders" title="Orders" icon={<ReceiptIcon />}>
            Customer orders and where each one stands: ordered, shipped, fulfilled.
          </SectionCard>
          <SectionCard to="/payouts" title="Payouts" icon={<WalletIcon />}>
            Member commissions: sent to the payment provider and paid out.
          </SectionCard>
        </ul>
      </nav>
    </Page>
  );
}

const counted = (figure: BoundedCount) => `${figure.count}${figure.atLeast ? '+' : ''}`;
const plural = (count: number, one: string, many: string) => (count === 1 ? one : many);

interface Figure {
  to: string;
  value: string;
  label: string;
  detail?: string;
  alert?: boolean;
}

function figuresOf(summary: AdminSummary): Figure[] {
  const { orders, commissions, failedPayouts, productsInReview } = summary;
  return [
    { to: '/orders/not_ordered_yet', value: String(orders.toOrder), label: 'Orders to order from the supplier' },
    { to: '/orders/not_shipped_yet', value: String(orders.toShip), label: 'Orders to ship' },
    { to: '/orders/not_fufilled_yet', value: String(orders.toFulfil), label: 'Orders to mark fulfilled' },
    {
      to: '/payouts/to_stripe',
      value: String(commissions.toSend),
      label: 'Commissions to send to Stripe',
      // Past their hold and not held for review: what Send all can send now.
      detail: `${formatMoney(Math.round(commissions.toSendAmount * 100))} past the hold, ready to send`,
    },
    {
      to: '/payouts/to_be_payed',
      value: String(commissions.toPay),
      label: 'Commissions to pay out',
      detail: `${formatMoney(Math.round(commissions.toPayAmount * 100))} in members’ Stripe balances, not held`,
    },
    {
      to: '/payouts/to_be_payed',
      value: counted(failedPayouts),
      label: plural(failedPayouts.count, 'Failed payout', 'Failed payouts'),
      detail: failedPayouts.count > 0 ? 'Shown with Stripe’s reason among the commissions to pay' : undefined,
      alert: failedPayouts.count > 0,
    },
    {
      to: '/product_import',
      value: counted(productsInReview),
      label: plural(productsInReview.count, 'Product waiting for review', 'Products waiting for review'),
    },
  ];
}

function TodaysWork() {
  const { call } = useAuth();
  const summary = useQuery({
    queryKey: queryKeys.adminSummary,
    queryFn: ({ signal }) => call('getAdminSummary', {}, { signal }),
  });
  return (
    <section aria-labelledby="todays-work">
      <h2 id="todays-work" className="section-title">
        Today’s work
      </h2>
      {summary.isPending ? (
        <Loading label="Loading today’s figures…" block={false} />
      ) : summary.isError ? (
        <ErrorBanner
          title="Today’s figures could not be loaded"
          message={toApiError(summary.error).message}
          onRetry={() => void summary.refetch()}
          retrying={summary.isFetching}
        />
      ) : (
        <ul className="admin-figures plain-list" role="list">
          {figuresOf(summary.data).map((figure) => (
            <li key={figure.label}>
              <Link className={`card admin-figure${figure.alert ? ' admin-figure--alert' : ''}`} to={figure.to}>
                <span className="admin-figure__value">{figure.value}</span>{' '}
                <span className="admin-figure__label">{figure.label}</span>
                {figure.detail ? (
                  <>
                    {' '}
                    <span className="admin-figure__detail">{figure.detail}</span>
                  </>
                ) : null}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function SectionCard({
  to,
  title,
  icon,
  children,
}: {
  to: string;
  title: string;
  icon: ReactNode;
  children: ReactNode;
}) {
  return (
    <li>
      <Link className="card nav-card" to={to}>
        <span className="nav-card__icon" aria-hidden="true">
          {icon}
        </span>
        <span className="nav-card__title">
          {title}
          <ChevronRightIcon />
        </span>
        <span className="nav-card__text">{children}</span>
      </Link>
    </li>
  );
}
