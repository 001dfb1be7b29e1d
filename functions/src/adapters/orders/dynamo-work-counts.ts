import { AVAILABLE_PREFIX, lists } from '@portal/shared/db/table';
import type { CommissionWork } from '../../orders/admin-summary';
import { queryAll } from '../dynamo-client';

/** Every item of one key range of a stage list (gsi2), with only `amountCents` and `status` read. */
async function readRange(
  stage: { index: string; partition: string },
  range?: { from: string; to: string },
): Promise<{ amountCents?: unknown; status?: unknown }[]> {
  return queryAll({
    IndexName: stage.index,
    KeyConditionExpression: range ? '#pk = :partition AND #sk BETWEEN :from AND :to' : '#pk = :partition',
    ProjectionExpression: 'amountCents, #status',
    ExpressionAttributeNames: {
      '#pk': `${stage.index}pk`,
      '#status': 'status',
      ...(range ? { '#sk': `${stage.index}sk` } : {}),
    },
    ExpressionAttributeValues: {
      ':partition': stage.partition,
      ...(range ? { ':from': range.from, ':to': range.to } : {}),
    },
  });
}

const cents = (item: { amountCents?: unknown }) => (typeof item.amountCents === 'number' ? item.amountCents : 0);

/**
 * What the admin can act on now in the two commission lists, as the lists themselves read it: the
 * To Stripe list's `AVAILABLE#` range up to `now` (fulfilled and past its hold; one held for review
 * or on hold is outside it), and the To be paid list's commissions in the members' Stripe balances
 * (`in_stripe`; one held for review is not). Both lists are work lists, emptied as they are worked.
 */
export async function commissionWork(now: number): Promise<CommissionWork> {
  const [sendable, payable] = await Promise.all([
    readRange(lists.commissionsAt('to_stripe'), {
      from: AVAILABLE_PREFIX,
      to: `${AVAILABLE_PREFIX}${new Date(now).toISOString()}#\uffff`,
    }),
    readRange(lists.commissionsAt('to_be_paid')),
  ]);
  const sendNow = sendable.filter((item) => item.status === 'processing');
  const payNow = payable.filter((item) => item.status === 'in_stripe');
  return {
    toSend: { count: sendNow.length, cents: sendNow.reduce((sum, item) => sum + cents(item), 0) },
    toPay: { count: payNow.length, cents: payNow.reduce((sum, item) => sum + cents(item), 0) },
  };
}
