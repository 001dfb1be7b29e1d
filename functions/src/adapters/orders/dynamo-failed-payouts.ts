import { lists } from '@portal/shared/db/table';
import type { BoundedCount } from '../../products/product-store';
import { queryPages } from '../dynamo-client';

/**
 * How many commissions to be paid carry a failed payout (`payoutFailure`, set by `payout.failed`,
 * cleared by the next payout): a COUNT Query of the to-be-paid stage (gsi2), filtered, read until
 * `cap` are found. The stage holds only the commissions in members' Stripe balances and not paid
 * out yet, so it stays small (docs/decisions/0150-catalogue-lists-and-admin-counts.md).
 */
export async function failedPayoutCount(cap: number): Promise<BoundedCount> {
  const stage = lists.commissionsAt('to_be_paid');
  let count = 0;
  for await (const page of queryPages({
    IndexName: stage.index,
    KeyConditionExpression: '#pk = :partition',
    FilterExpression: 'attribute_type(payoutFailure, :string)',
    ExpressionAttributeNames: { '#pk': `${stage.index}pk` },
    ExpressionAttributeValues: { ':partition': stage.partition, ':string': 'S' },
    Select: 'COUNT',
  })) {
    count += page.Count ?? 0;
    if (count > cap) break;
  }
  return count > cap ? { count: cap, atLeast: true } : { count, atLeast: false };
}
