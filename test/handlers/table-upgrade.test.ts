import { CreateTableCommand, DeleteTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { table } from '@portal/shared/db/table';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTable, localAws, startDynamo, type LocalDynamo } from '../../infra/local/dynamo';

/**
 * A developer's `.local/` holds a table made by an older version: `npm start` adds the indexes the
 * shared definition gained since, and keeps every item. The test has an engine of its own with its
 * data on disk, as `npm start` keeps it. In the engine the other handler tests share, adding an
 * index once took over 30 s while they ran (`npm test`); alone it takes about 2 s.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'portal-upgrade-'));
let dynamo: LocalDynamo;
let client: DynamoDBClient;
let doc: DynamoDBDocumentClient;
const tableName = 'reseller-portal';

beforeAll(async () => {
  dynamo = await startDynamo({ dataDir });
  client = new DynamoDBClient({ ...localAws, endpoint: dynamo.endpoint });
  doc = DynamoDBDocumentClient.from(client);
});

afterAll(async () => {
  await client?.send(new DeleteTableCommand({ TableName: tableName })).catch(() => undefined);
  client?.destroy();
  await dynamo?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('ensureTable on a table from an older version', () => {
  it('adds the missing indexes and keeps the items', async () => {
    const [first] = table.indexes;
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: ['pk', 'sk', first.partitionKey, first.sortKey].map((name) => ({
          AttributeName: name,
          AttributeType: 'S',
        })),
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: [
          {
            IndexName: first.name,
            KeySchema: [
              { AttributeName: first.partitionKey, KeyType: 'HASH' },
              { AttributeName: first.sortKey, KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
        ],
      }),
    );
    await doc.send(new PutCommand({ TableName: tableName, Item: { pk: 'USER#kept', sk: 'PROFILE', name: 'kept' } }));

    await ensureTable(client, tableName);

    const described = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const names = (described.Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName).sort();
    expect(names).toEqual(table.indexes.map((index) => index.name).sort());
    // …and the stream the places function reads (decision 0481).
    expect(described.Table?.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: table.streamViewType });
    const kept = await doc.send(new GetCommand({ TableName: tableName, Key: { pk: 'USER#kept', sk: 'PROFILE' } }));
    expect(kept.Item).toMatchObject({ name: 'kept' });

    // A second start changes nothing.
    await ensureTable(client, tableName);
    const again = await client.send(new DescribeTableCommand({ TableName: tableName }));
    expect(again.Table?.GlobalSecondaryIndexes).toHaveLength(table.indexes.length);
  });
});
