import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { commissionStore } from '../../composition';
import { refreshPlaces, type EarningsChange } from '../../commissions/places';
import { loadLogger } from '../../config/logger';

/**
 * The table's stream, filtered to the writes of members' earnings shards (the stack's event source
 * mapping, decision 0481): a batch at a time, each member's top-earners place refreshed once. A
 * place that could not be written is reported with ReportBatchItemFailures, so the batch comes
 * again from that member's first change (bisected, then to the failed-events queue after the
 * mapping's tries); a record that names no earnings shard is no change of a place.
 */
export const handler = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const changes: EarningsChange[] = [];
  for (const record of event.Records) {
    const keys = record.dynamodb?.Keys;
    const memberId = commissionStore.earningsShardMember({ pk: keys?.pk?.S, sk: keys?.sk?.S });
    const sequenceNumber = record.dynamodb?.SequenceNumber;
    if (memberId && sequenceNumber) changes.push({ memberId, sequenceNumber });
  }
  const outcome = await refreshPlaces(commissionStore, changes);
  if (!outcome.retryFrom) return { batchItemFailures: [] };
  (await loadLogger()).warn('Top-earners places not written; the batch comes again from the first', {
    refreshed: outcome.refreshed,
    failed: outcome.errors.length,
    retryFrom: outcome.retryFrom,
    error: outcome.errors[0],
  });
  return { batchItemFailures: [{ itemIdentifier: outcome.retryFrom }] };
};
