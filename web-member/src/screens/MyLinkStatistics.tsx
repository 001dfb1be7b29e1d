import { useQuery } from '@tanstack/react-query';
import { useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import { EmptyState } from '@portal/shared/ui/components/EmptyState';
import { ErrorBanner } from '@portal/shared/ui/components/ErrorBanner';
import { ChartIcon } from '@portal/shared/ui/components/icons';
import { LinkStatisticsView } from '@portal/shared/ui/components/LinkStatisticsView';
import { Loading } from '@portal/shared/ui/components/Loading';

/**
 * My Account's "Your links" (issue 39): what the member's share links brought in the last 90 days,
 * by day and by product: visits, sales, conversion and earnings.
 */
export function MyLinkStatistics() {
  const { call, userProfile } = useAuth();
  const statistics = useQuery({
    queryKey: ['linkStatistics', 'mine', userProfile?.id ?? ''],
    queryFn: () => call('getMyLinkStatistics', {}),
    enabled: Boolean(userProfile?.id),
  });
  if (statistics.isPending) return <Loading label="Loading your links' statistics…" />;
  if (statistics.isError) {
    return (
      <ErrorBanner
        title="Your links' statistics could not be loaded"
        message={statistics.error.message}
        onRetry={() => void statistics.refetch()}
        retrying={statistics.isFetching}
      />
    );
  }
  const { total } = statistics.data;
  if (!total.visits.some(Boolean) && !total.sales.some(Boolean)) {
    return (
      <EmptyState icon={<ChartIcon />} title="No visits yet.">
        <p>
          When someone opens a product you shared, the visit is counted here: once an hour per person, without cookies;
          bots and link previews are left out. Share a product from the catalogue to start.
        </p>
      </EmptyState>
    );
  }
  return <LinkStatisticsView statistics={statistics.data} earningsLabel="Your earnings" />;
}
