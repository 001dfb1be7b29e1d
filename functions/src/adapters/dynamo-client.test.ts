import { DynamoDBDocumentClient, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { backoff, isThrottled, queryAll, queryPages, scanPages } from './dynamo-client';

const named = (name: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(name), { name, ...extra });

describe('isThrottled', () => {
  it('knows DynamoDB throttling, thrown or as a cancellation reason, and nothing else', () => {
    expect(isThrottled(named('ProvisionedThroughputExceededException'))).toBe(true);
    expect(isThrottled(named('ThrottlingException'))).toBe(true);
    expect(isThrottled(named('RequestLimitExceeded'))).toBe(true);
    const cancelled = (...codes: string[]) =>
      named('TransactionCanceledException', { CancellationReasons: codes.map((Code) => ({ Code })) });
    expect(isThrottled(cancelled('None', 'ThrottlingError'))).toBe(true);
    expect(isThrottled(cancelled('None', 'ConditionalCheckFailed'))).toBe(false);
    expect(isThrottled(cancelled('TransactionConflict'))).toBe(false);
    expect(isThrottled(named('ConditionalCheckFailedException'))).toBe(false);
    expect(isThrottled(named('ValidationException'))).toBe(false);
    expect(isThrottled('ThrottlingException')).toBe(false);
  });
});

describe('backoff', () => {
  afterEach(() => vi.restoreAllMocks());

  it('waits a random time (full jitter) under an exponential ceiling, capped', async () => {
    const waits: number[] = [];
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((resolve: () => void, ms: number) => {
      waits.push(ms);
      resolve();
      return 0;
    }) as unknown as typeof setTimeout);
    const random = vi.spyOn(Math, 'random');
    for (const [attempt, draw] of [
      [1, 0.5],
      [3, 0.999],
      [3, 0],
      [12, 0.999],
    ] as const) {
      random.mockReturnValueOnce(draw);
      await backoff(attempt);
    }
    // 50 ms * 2^attempt is the ceiling; the draw picks a point under it; 5 s caps it.
    expect(waits).toEqual([50, 0.999 * 400, 0, 0.999 * 5_000]);
  });
});

describe('queryPages, queryAll and scanPages', () => {
  const documents = mockClient(DynamoDBDocumentClient);
  /** Three pages of two items; each page's key is the one after its last item. */
  const pages = [
    { Items: [{ n: 1 }, { n: 2 }], LastEvaluatedKey: { pk: 'P', sk: '2' } },
    { Items: [{ n: 3 }, { n: 4 }], LastEvaluatedKey: { pk: 'P', sk: '4' } },
    { Items: [{ n: 5 }, { n: 6 }] },
  ];
  beforeEach(() => {
    vi.stubEnv('TABLE_NAME', 'paging-table');
    documents.reset();
    for (const command of [QueryCommand, ScanCommand]) {
      documents.on(command).resolvesOnce(pages[0]!).resolvesOnce(pages[1]!).resolvesOnce(pages[2]!);
    }
  });
  afterEach(() => vi.unstubAllEnvs());

  it('reads every page, each from the key the last one ended at, with the table filled in', async () => {
    const items = await queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'P' } });
    expect(items.map((item) => item.n)).toEqual([1, 2, 3, 4, 5, 6]);
    const sent = documents.commandCalls(QueryCommand).map((call) => call.args[0].input);
    expect(sent.map((input) => input.ExclusiveStartKey)).toEqual([
      undefined,
      { pk: 'P', sk: '2' },
      { pk: 'P', sk: '4' },
    ]);
    expect(new Set(sent.map((input) => `${input.TableName} ${input.KeyConditionExpression}`))).toEqual(
      new Set(['paging-table pk = :pk']),
    );
  });

  it('reads no further page once the caller leaves the loop', async () => {
    let seen = 0;
    for await (const page of queryPages({ KeyConditionExpression: 'pk = :pk' })) {
      seen += page.Items?.length ?? 0;
      if (seen >= 2) break;
    }
    expect(documents.commandCalls(QueryCommand)).toHaveLength(1);
  });

  it('pages a Scan the same way', async () => {
    const found: unknown[] = [];
    for await (const page of scanPages({ FilterExpression: 'entity = :e' })) found.push(...(page.Items ?? []));
    expect(found).toHaveLength(6);
    expect(documents.commandCalls(ScanCommand)).toHaveLength(3);
  });
});
