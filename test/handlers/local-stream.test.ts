import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { db, tableName } from '../../functions/src/adapters/dynamo-client';
import { localAws, tableStreamArn } from '../../infra/local/dynamo';
import {
  checkpointFile,
  pollStream,
  type StreamBatchFailure,
  type StreamPollOptions,
} from '../../infra/local/stream-events';
import { withTableStream } from './places';

/**
 * Lambda's event source mapping on a table's stream, locally (infra/local/stream-events.ts,
 * decision 0481), over this file's table's stream in DynamoDB Local, through the SDK's streams client.
 */
await withTableStream();
const endpoint = inject('dynamoEndpoint');
const streams = new DynamoDBStreamsClient({ ...localAws, endpoint });
const client = new DynamoDBClient({ ...localAws, endpoint });
const streamArn = await tableStreamArn(client, tableName());
const dir = mkdtempSync(join(tmpdir(), 'portal-stream-'));
afterAll(() => {
  streams.destroy();
  client.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const put = (pk: string, sk: string) => db().send(new PutCommand({ TableName: tableName(), Item: { pk, sk } }));
const keysOf = (event: DynamoDBStreamEvent) =>
  event.Records.map((record) => `${record.dynamodb?.Keys?.pk?.S}/${record.dynamodb?.Keys?.sk?.S}`);
const earningsOnly = [JSON.stringify({ dynamodb: { Keys: { sk: { S: [{ prefix: 'EARNINGS#' }] } } } })];

/** Runs a mapping until it has read everything there is, then stops it. */
async function drain(options: Omit<StreamPollOptions, 'streams' | 'streamArn'>) {
  const poller = pollStream({ streams, streamArn, retryDelayMs: 1, ...options });
  await poller.idle();
  await poller.stop();
}

describe('the local stream mapping', () => {
  it('hands over only what its filter matches, in order, in batches of its size', async () => {
    const run = `a${Date.now()}`;
    for (let index = 0; index < 7; index++) {
      await put(`USER#${run}`, `EARNINGS#SHARD#${String(index).padStart(2, '0')}`);
      await put(`USER#${run}`, `OTHER#${index}`);
    }
    await put(`USER#${run}`, 'EARNINGS');
    const batches: string[][] = [];
    await drain({
      batchSize: 3,
      filters: earningsOnly,
      handler: async (event) => void batches.push(keysOf(event).filter((key) => key.startsWith(`USER#${run}/`))),
    });
    const mine = batches.filter((batch) => batch.length > 0);
    expect(mine.flat()).toEqual(Array.from({ length: 7 }, (_, i) => `USER#${run}/EARNINGS#SHARD#0${i}`));
    expect(Math.max(...batches.map((batch) => batch.length))).toBeLessThanOrEqual(3);
  });

  it('goes on after the last record handed over when started again with its checkpoints, kept 0600', async () => {
    const file = join(dir, 'mapping.json');
    const checkpoints = checkpointFile(file);
    const seen: string[] = [];
    const handler = async (event: DynamoDBStreamEvent) => void seen.push(...keysOf(event));
    const run = `b${Date.now()}`;
    await put(`USER#${run}`, 'EARNINGS#SHARD#01');
    await drain({ handler, filters: earningsOnly, checkpoints });
    expect(seen).toContain(`USER#${run}/EARNINGS#SHARD#01`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ streamArn });

    seen.length = 0;
    await put(`USER#${run}`, 'EARNINGS#SHARD#02');
    await drain({ handler, filters: earningsOnly, checkpoints });
    // The restart reads only what came after: not the first record again, nor anything before it.
    expect(seen).toEqual([`USER#${run}/EARNINGS#SHARD#02`]);
    // Another stream's checkpoints (a table made again) are not this one's.
    expect(checkpointFile(file).load('arn:aws:dynamodb:ddblocal:000000000000:table/other/stream/1')).toEqual({});
  });

  it('tries a failed batch again from the record the function names, and halves a failing batch down to that record', async () => {
    const run = `c${Date.now()}`;
    for (const shard of ['01', '02', '03', '04']) await put(`USER#${run}`, `EARNINGS#SHARD#${shard}`);
    const invocations: string[][] = [];
    let failedOnce = false;
    const failures: StreamBatchFailure[] = [];
    await drain({
      filters: [JSON.stringify({ dynamodb: { Keys: { pk: { S: [`USER#${run}`] } } } })],
      reportBatchItemFailures: true,
      bisectBatchOnError: true,
      retryAttempts: 1,
      onFailure: async (failure) => void failures.push(failure),
      handler: async (event) => {
        const keys = keysOf(event).map((key) => key.slice(key.indexOf('#SHARD#') + 7));
        invocations.push(keys);
        const at = keys.indexOf('02');
        // 02 fails once (named), 04 always (thrown).
        if (at >= 0 && !failedOnce) {
          failedOnce = true;
          return { batchItemFailures: [{ itemIdentifier: event.Records[at]!.dynamodb!.SequenceNumber! }] };
        }
        if (keys.includes('04')) throw new Error('04 cannot be handled');
        return { batchItemFailures: [] };
      },
    });
    expect(invocations[0]).toEqual(['01', '02', '03', '04']);
    // From 02 on, halved: [02, 03] pass, then [04] alone fails 1 + 1 times (its retry) and is given up on.
    expect(invocations.slice(1)).toEqual([['02', '03'], ['04'], ['04']]);
    expect(failures).toEqual([
      expect.objectContaining({ condition: 'RetryAttemptsExhausted', batchSize: 1, streamArn }),
    ]);
  });

  it('hands no record older than its maximum age to the function: they go to the on-failure destination', async () => {
    const run = `d${Date.now()}`;
    await put(`USER#${run}`, 'EARNINGS#SHARD#09');
    const handed: string[] = [];
    const failures: StreamBatchFailure[] = [];
    await drain({
      filters: [JSON.stringify({ dynamodb: { Keys: { pk: { S: [`USER#${run}`] } } } })],
      maxRecordAgeSeconds: 0,
      handler: async (event) => void handed.push(...keysOf(event)),
      onFailure: async (failure) => void failures.push(failure),
    });
    expect(handed).toEqual([]);
    expect(failures).toEqual([expect.objectContaining({ condition: 'RecordAgeExceeded', batchSize: 1 })]);
  });
});
