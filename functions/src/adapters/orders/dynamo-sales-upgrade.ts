import {
  GetCommand,
  PutCommand,
  UpdateCommand,
  paginateQuery,
  type QueryCommandInput,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { AVAILABLE_PREFIX, LEGACY_STAGE_PARTITIONS, availableSortKey, lists } from '@portal/shared/db/table';
import { commissionStatusOf } from '@portal/shared/domain/sales-status';
import { db, tableName, writtenUnlessConditionFails } from '../dynamo-client';
import { orderSearchKeys } from './dynamo-sale-recorder';

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
export async function upgradeSalesItems(): Promise<{ moved: number; searchable: number }> {
  let moved = 0;
  for (const [legacy, current] of Object.entries(LEGACY_STAGE_PARTITIONS)) {
    moved += await updateEach(
      {
        IndexName: 'gsi2',
        KeyConditionExpression: 'gsi2pk = :legacy',
        ExpressionAttributeValues: { ':legacy': legacy },
        ProjectionExpression: 'pk, sk',
      },
      () => ({
        UpdateExpression: 'SET gsi2pk = :current',
        ConditionExpression: 'gsi2pk = :legacy',
        ExpressionAttributeValues: { ':legacy': legacy, ':current': current },
      }),
    );
  }
  const searchable = await addOrderSearchKeys();
  return { moved: moved + (await sortFulfilledByAvailability()), searchable };
}

type Item = Record<string, unknown>;
type ItemUpdate = Omit<UpdateCommandInput, 'TableName' | 'Key'>;

/**
 * Reads every page of a query of the table and updates each item it answers by `update` (none
 * where it answers undefined), each update conditional on what was read: answers how many were
 * written; an item whose condition failed (moved on meanwhile) is left as it is.
 */
async function updateEach(
  query: Omit<QueryCommandInput, 'TableName'>,
  update: (item: Item) => ItemUpdate | undefined,
): Promise<number> {
  let written = 0;
  for await (const page of paginateQuery({ client: db() }, { ...query, TableName: tableName() })) {
    for (const item of page.Items ?? []) {
      const change = update(item);
      if (!change) continue;
      const key = { pk: item.pk, sk: item.sk };
      const command = new UpdateCommand({ ...change, TableName: tableName(), Key: key });
      if (await writtenUnlessConditionFails(() => db().send(command))) written++;
    }
  }
  return written;
}

/**
 * The To Stripe list reads what can be sent now as one key range (`AVAILABLE#<time>#<id>`, written
 * at fulfilment). A commission fulfilled before the hold existed has no `availableAt` (it is
 * available) and its place is `<createdAt>#<id>`: it gets `AVAILABLE#<createdAt>#<id>`, once,
 * conditional on its place and status as read.
 */
function sortFulfilledByAvailability(): Promise<number> {
  return updateEach(
    {
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :partition AND gsi2sk < :available',
      ExpressionAttributeValues: {
        ':partition': lists.commissionsAt('to_stripe').partition,
        ':available': AVAILABLE_PREFIX,
      },
    },
    (item) => {
      if (commissionStatusOf(item) !== 'processing' || typeof item.id !== 'string') return undefined;
      const since = Date.parse(String(item.createdAt));
      if (Number.isNaN(since)) return undefined;
      return {
        UpdateExpression: 'SET gsi2sk = :sort',
        ConditionExpression: 'gsi2sk = :was AND attribute_not_exists(availableAt)',
        ExpressionAttributeValues: { ':sort': availableSortKey(since, item.id), ':was': item.gsi2sk },
      };
    },
  );
}

/** Marks that every order stored before the search keys has them (decision 0140). */
const SEARCH_KEYS_DONE = { pk: 'UPGRADE#order-search-keys', sk: 'UPGRADE' };

/**
 * Gives the orders stored before searches existed their search keys (order number, product;
 * dynamo-sale-recorder.ts `orderSearchKeys`), once: each update is conditional on the order having
 * none, and a marker item says it is done, so later starts read no order.
 */
async function addOrderSearchKeys(): Promise<number> {
  const done = await db().send(new GetCommand({ TableName: tableName(), Key: SEARCH_KEYS_DONE, ConsistentRead: true }));
  if (done.Item) return 0;
  const given = await updateEach(
    {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :orders',
      ExpressionAttributeValues: { ':orders': lists.orders.partition },
    },
    (item) => {
      if (typeof item.gsi4pk === 'string') return undefined;
      const searchKeys = orderSearchKeys({
        id: String(item.id),
        orderID: String(item.orderID),
        product_id: String(item.product_id),
        createdAt: String(item.createdAt),
      });
      return {
        UpdateExpression: 'SET gsi3pk = :numberPk, gsi3sk = :numberSk, gsi4pk = :productPk, gsi4sk = :productSk',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(gsi4pk)',
        ExpressionAttributeValues: {
          ':numberPk': searchKeys.gsi3pk,
          ':numberSk': searchKeys.gsi3sk,
          ':productPk': searchKeys.gsi4pk,
          ':productSk': searchKeys.gsi4sk,
        },
      };
    },
  );
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...SEARCH_KEYS_DONE, entity: 'upgrade' } }));
  return given;
}
