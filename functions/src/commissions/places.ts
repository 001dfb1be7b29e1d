import { mapLimit } from '@portal/shared/domain/map-limit';
import type { CommissionStore } from './commission-store';

/**
 * The members' top-earners places, refreshed off the sale's path (decision 0481): the table's
 * stream hands the places function every write of an earnings shard (a sale ADDs to one, a refund
 * takes from one), a batch at a time, in order per shard. Each member of a batch is refreshed once,
 * however many of their sales or refunds it holds: a viral member's 100 sales make one refresh, not
 * 100. A refresh reads the member's shards as they are then, so it covers every change before it.
 */

/** One earnings change of a batch: whose, and the stream record's sequence number. */
export interface EarningsChange {
  memberId: string;
  sequenceNumber: string;
}

/** Members refreshed at the same time within a batch (each a Query, a GetItem and an Update). */
export const PLACE_REFRESHES_AT_ONCE = 10;

/**
 * Refreshes each member of the batch once, in the order of their first change. Answers the
 * sequence number the batch must be tried again from: the first change of the first member whose
 * refresh failed (Lambda's ReportBatchItemFailures for a stream: every record from it comes again,
 * and refreshing a member again is harmless), or undefined when every place is written.
 */
export async function refreshPlaces(
  store: Pick<CommissionStore, 'refreshPlace'>,
  changes: readonly EarningsChange[],
): Promise<{ refreshed: number; retryFrom?: string; errors: unknown[] }> {
  const firstChange = new Map<string, number>();
  changes.forEach((change, index) => {
    if (!firstChange.has(change.memberId)) firstChange.set(change.memberId, index);
  });
  const members = [...firstChange.keys()];
  const outcomes = await mapLimit(members, PLACE_REFRESHES_AT_ONCE, (memberId) =>
    store.refreshPlace(memberId).then(
      () => undefined,
      (error: unknown) => ({ index: firstChange.get(memberId)!, error }),
    ),
  );
  const failed = outcomes.filter((outcome) => outcome !== undefined);
  if (failed.length === 0) return { refreshed: members.length, errors: [] };
  const first = Math.min(...failed.map((failure) => failure.index));
  return {
    refreshed: members.length - failed.length,
    retryFrom: changes[first]!.sequenceNumber,
    errors: failed.map((failure) => failure.error),
  };
}
