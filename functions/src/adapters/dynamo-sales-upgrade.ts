import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { LEGACY_STAGE_PARTITIONS } from '@portal/shared/db/table';
import { db, isConditionFailed, tableName } from './dynamo-client';

/**
 * Moves the orders and commissions stored in a stage list under its misspelled name of before
 * (`ORDERS#STAGE#not_fufilled`, `COMMISSIONS#STAGE#to_be_payed`) to the list's right name, keeping
 * their place (the sort key). Each move is conditional on the item still being in the old list, so
 * running it twice, or beside a mark or a payout that moves the item on, changes nothing twice.
 * `npm start` runs it after ensureTable; a deployed stack after each deploy
 * (handlers/deploy/upgrade-table.ts). Other
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
  return { moved };
}
