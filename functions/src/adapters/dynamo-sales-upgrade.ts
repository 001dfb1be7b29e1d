import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { AVAILABLE_PREFIX, LEGACY_STAGE_PARTITIONS, availableSortKey, lists } from '@portal/shared/db/table';
import { commissionStatusOf } from '@portal/shared/domain/sales-status';
import { db, isConditionFailed, tableName } from './dynamo-client';

/**
 * Moves the orders and commissions stored in a stage list under its misspelled name of before
 * (`ORDERS#STAGE#not_fufilled`, `COMMISSIONS#STAGE#to_be_payed`) to the list's right name, keeping
 * their place (the sort key). Each move is conditional on the item still being in the old list, so
 * running it twice, or beside a mark or a payout that moves the item on, changes nothing twice.
 * `npm start` runs it after ensureTable; a deployed table runs it once after the deploy. Other
 * names of before need no upgrade: the counters' sums read `notFufilled`/`toBePayed*` into their
 * right names, and the flags of before read as a status (shared/src/domain/sales-status.ts).
 */
export async function upgradeSalesItems(): Promise<{ moved: number }> {
  let moved = 0;
  for (const [legacy, current] of Object.entries(LEGACY_STAGE_PARTITIONS)) {
    let start: Record<string, unknown> | undefined;
    do {
      const page = await db().send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: 'gsi2',
          KeyConditionExpression: 'gsi2pk = :legacy',
          ExpressionAttributeValues: { ':legacy': legacy },
          ProjectionExpression: 'pk, sk',
          ExclusiveStartKey: start,
        }),
      );
      for (const item of page.Items ?? []) {
        try {
          await db().send(
            new UpdateCommand({
              TableName: tableName(),
              Key: { pk: item.pk, sk: item.sk },
              UpdateExpression: 'SET gsi2pk = :current',
              ConditionExpression: 'gsi2pk = :legacy',
              ExpressionAttributeValues: { ':legacy': legacy, ':current': current },
            }),
          );
          moved++;
        } catch (error) {
          if (!isConditionFailed(error)) throw error;
        }
      }
      start = page.LastEvaluatedKey;
    } while (start);
  }
  return { moved: moved + (await sortFulfilledByAvailability()) };
}

/**
 * The To Stripe list reads what can be sent now as one key range (`AVAILABLE#<time>#<id>`, written
 * at fulfilment). A commission fulfilled before the hold existed has no `availableAt` (it is
 * available) and its place is `<createdAt>#<id>`: it gets `AVAILABLE#<createdAt>#<id>`, once,
 * conditional on its place and status as read.
 */
async function sortFulfilledByAvailability(): Promise<number> {
  const partition = lists.commissionsAt('to_stripe').partition;
  let moved = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi2',
        KeyConditionExpression: 'gsi2pk = :partition AND gsi2sk < :available',
        ExpressionAttributeValues: { ':partition': partition, ':available': AVAILABLE_PREFIX },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) {
      if (commissionStatusOf(item) !== 'processing' || typeof item.id !== 'string') continue;
      const since = Date.parse(String(item.createdAt));
      if (Number.isNaN(since)) continue;
      try {
        await db().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: { pk: item.pk, sk: item.sk },
            UpdateExpression: 'SET gsi2sk = :sort',
            ConditionExpression: 'gsi2sk = :was AND attribute_not_exists(availableAt)',
            ExpressionAttributeValues: { ':sort': availableSortKey(since, item.id), ':was': item.gsi2sk },
          }),
        );
        moved++;
      } catch (error) {
        if (!isConditionFailed(error)) throw error;
      }
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return moved;
}
