import { useQuery } from '@tanstack/react-query';
import { openCheckoutsWords, type CheckoutCancelCounts } from '@portal/shared/domain/open-checkouts';
import { useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import { queryKeys } from '@portal/shared/query/keys';

/** How often the counts are read again while the cancelling runs. */
const POLL_MS = 1_500;

/**
 * What a ban or withdrawal does to the product's unpaid checkouts, followed as the cancel function
 * works through them (issue 38): "Cancelling 1,000 open checkouts at Stripe… 400 cancelled so far.",
 * then what became of each. Starts from the ban's own answer; says nothing when there were none.
 */
export function CheckoutCancelsNote({ productId, started }: { productId: string; started: CheckoutCancelCounts }) {
  const { call } = useAuth();
  const counts = useQuery({
    queryKey: queryKeys.adminCatalogue.checkoutCancels(productId),
    queryFn: ({ signal }) => call('getCheckoutCancels', { id: productId }, { signal }),
    initialData: started,
    // The ban's answer is the start: read again at once unless it is already done.
    initialDataUpdatedAt: 0,
    enabled: !started.done,
    refetchInterval: (query) => (query.state.data?.done ? false : POLL_MS),
  });
  const words = openCheckoutsWords(counts.data);
  if (!words) return null;
  return <p className="banner__message">{words}</p>;
}
