import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ApiError } from '@portal/shared/api/client';
import { useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import { EmptyState } from '@portal/shared/ui/components/EmptyState';
import { ErrorBanner } from '@portal/shared/ui/components/ErrorBanner';
import { FormField } from '@portal/shared/ui/components/FormField';
import { ChartIcon } from '@portal/shared/ui/components/icons';
import { LinkStatisticsView } from '@portal/shared/ui/components/LinkStatisticsView';
import { Loading } from '@portal/shared/ui/components/Loading';
import { Page } from '@portal/shared/ui/components/Page';

type Filter = { memberEmail?: string; productId?: string };

/**
 * '/admin/link_statistics' (issue 39): what the share links brought in the last 90 days, by day:
 * every link, one member's (with each of their products) or one product's, and the funnel from
 * visits to checkouts started to paid.
 */
export function LinkStatisticsScreen() {
  const { call } = useAuth();
  const [filter, setFilter] = useState<Filter>({});
  const [memberEmail, setMemberEmail] = useState('');
  const [productId, setProductId] = useState('');
  const statistics = useQuery({
    queryKey: ['linkStatistics', 'admin', filter],
    queryFn: () => call('getLinkStatistics', filter),
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 2,
  });
  const fields = statistics.error instanceof ApiError ? (statistics.error.fields ?? {}) : {};

  const show = (event: FormEvent) => {
    event.preventDefault();
    const email = memberEmail.trim();
    const product = productId.trim();
    setFilter(email ? { memberEmail: email } : product ? { productId: product } : {});
  };
  const all = () => {
    setMemberEmail('');
    setProductId('');
    setFilter({});
  };

  let content;
  if (statistics.isPending) content = <Loading label="Loading the statistics…" />;
  else if (statistics.isError && Object.keys(fields).length === 0) {
    content = (
      <ErrorBanner
        title="The statistics could not be loaded"
        message={statistics.error.message}
        onRetry={() => void statistics.refetch()}
        retrying={statistics.isFetching}
      />
    );
  } else if (statistics.data) {
    const { total } = statistics.data;
    content = (
      <section aria-labelledby="stats-scope" className="card link-stats-card">
        <h2 className="section-title" id="stats-scope">
          {statistics.data.scope}
        </h2>
        {total.visits.some(Boolean) || total.sales.some(Boolean) ? (
          <LinkStatisticsView statistics={statistics.data} showFunnel earningsLabel="Commissions" />
        ) : (
          <EmptyState icon={<ChartIcon />} title="No visits in the last 90 days.">
            <p>Visits are counted when a customer opens a share link: once an hour per person; bots are left out.</p>
          </EmptyState>
        )}
      </section>
    );
  }

  return (
    <Page
      title="Link statistics"
      description="What the members' share links brought in the last 90 days: visits, checkouts, sales and commissions by day."
    >
      <form className="card link-stats-filter" onSubmit={show} aria-label="Whose links" noValidate>
        <FormField
          label="Member's e-mail"
          hint="One member's links, with each of their products."
          type="email"
          autoComplete="off"
          value={memberEmail}
          onChange={(event) => setMemberEmail(event.target.value)}
          error={fields.memberEmail ?? null}
        />
        <FormField
          label="Product id"
          hint="One product over every member's links (used when no e-mail is given)."
          value={productId}
          onChange={(event) => setProductId(event.target.value)}
          error={fields.productId ?? null}
        />
        <div className="link-stats-filter__actions">
          <button type="submit" className="button button--primary">
            Show
          </button>
          <button type="button" className="button button--secondary" onClick={all}>
            All links
          </button>
        </div>
      </form>
      {content}
    </Page>
  );
}
