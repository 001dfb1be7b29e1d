import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DynamoDBDocumentClient,
  QueryCommand,
  ScanCommand,
  TransactWriteCommand,
  type QueryCommandInput,
  type QueryCommandOutput,
  type ScanCommandInput,
  type ScanCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import { env } from '../config/env';
import { awsErrorKind, badRequest } from '../errors';

/** One document client per container, created on first use and reused across invocations. */
let documentClient: DynamoDBDocumentClient | undefined;

export function db(): DynamoDBDocumentClient {
  if (!documentClient) {
    const { DYNAMODB_ENDPOINT, AWS_REGION } = env();
    const client = new DynamoDBClient({
      region: AWS_REGION,
      ...(DYNAMODB_ENDPOINT ? { endpoint: DYNAMODB_ENDPOINT } : {}),
    });
    documentClient = DynamoDBDocumentClient.from(client, {
      marshallOptions: { removeUndefinedValues: true, convertEmptyValues: false },
    });
  }
  return documentClient;
}

export const tableName = (): string => env().TABLE_NAME;

/** Why each item of a cancelled TransactWrite failed (in request order), or undefined for any other error. */
export function cancellationReasons(error: unknown): { Code?: string }[] | undefined {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return undefined;
  return (error as Error & { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
}

/** True when a TransactWrite was cancelled because the condition of item `index` failed. */
export function conditionFailedAt(error: unknown, index: number): boolean {
  return cancellationReasons(error)?.[index]?.Code === 'ConditionalCheckFailed';
}

/** True when a TransactWrite was cancelled because another transaction was writing the same items. */
export function isTransactionConflict(error: unknown): boolean {
  return cancellationReasons(error)?.some((reason) => reason.Code === 'TransactionConflict') ?? false;
}

/**
 * True for DynamoDB's throttling errors, thrown or as a transaction's cancellation reason. The SDK
 * retries them itself (3 attempts, backoff with jitter); one that reaches us outlasted those, and
 * the bulk writers below treat it as DynamoDB's own advice for unprocessed items: wait, try again.
 */
export const isThrottled = (error: unknown): boolean => awsErrorKind(error) === 'throttled';

export function isConditionFailed(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}

/** Runs a conditional write: true when it was written, false when its condition failed. */
export async function writtenUnlessConditionFails(write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
}

/** Waits 2^attempt * base ms with full jitter, so retries from many writers spread out. */
export const backoff = (attempt: number, baseMs = 50, capMs = 5_000): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(capMs, baseMs * 2 ** attempt)));

const MAX_BATCH_ATTEMPTS = 10;

/**
 * BatchWrites any number of requests, 25 per BatchWriteItem and those requests side by side,
 * retrying unprocessed items (and a whole throttled request) with backoff and jitter.
 */
export async function batchWriteAll(requests: readonly Record<string, unknown>[]): Promise<void> {
  const chunks: Record<string, unknown>[][] = [];
  for (let start = 0; start < requests.length; start += 25) chunks.push(requests.slice(start, start + 25));
  await Promise.all(
    chunks.map(async (chunk) => {
      let pending = chunk;
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt >= MAX_BATCH_ATTEMPTS) {
          throw new Error(`DynamoDB left ${pending.length} writes unprocessed after ${attempt} tries`);
        }
        if (attempt > 0) await backoff(attempt);
        let result;
        try {
          result = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
        } catch (error) {
          if (isThrottled(error)) continue;
          throw error;
        }
        pending = (result.UnprocessedItems?.[tableName()] ?? []) as Record<string, unknown>[];
      }
    }),
  );
}

/** The command's answer, or undefined when DynamoDB throttled it beyond the SDK's retries. */
async function sendUnlessThrottled(command: BatchGetCommand) {
  try {
    return await db().send(command);
  } catch (error) {
    if (isThrottled(error)) return undefined;
    throw error;
  }
}

/** BatchGets up to 100 keys, retrying unprocessed ones (and a throttled request) with backoff and jitter. */
export async function batchGetAll(
  keyList: readonly Record<string, string>[],
  projection?: { expression: string; names?: Record<string, string> },
): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  for (let start = 0; start < keyList.length; start += 100) {
    let pending: Record<string, unknown>[] = keyList.slice(start, start + 100);
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt >= MAX_BATCH_ATTEMPTS)
        throw new Error(`DynamoDB left ${pending.length} reads unprocessed after ${attempt} tries`);
      if (attempt > 0) await backoff(attempt);
      const result = await sendUnlessThrottled(
        new BatchGetCommand({
          RequestItems: {
            [tableName()]: {
              Keys: pending,
              ConsistentRead: true,
              ...(projection
                ? { ProjectionExpression: projection.expression, ExpressionAttributeNames: projection.names }
                : {}),
            },
          },
        }),
      );
      if (!result) continue;
      found.push(...(result.Responses?.[tableName()] ?? []));
      pending = (result.UnprocessedKeys?.[tableName()]?.Keys ?? []) as Record<string, unknown>[];
    }
  }
  return found;
}

/** Page cursors are the encoded LastEvaluatedKey; a cursor that does not decode to one is a 400 (a DomainError). */
export function encodeCursor(key: Record<string, unknown> | undefined): string | null {
  return key ? Buffer.from(JSON.stringify(key)).toString('base64url') : null;
}

/**
 * What a list's cursor must decode to: exactly the key attributes of the index it reads (the
 * table's `pk`/`sk`, plus the index's own keys for a GSI), every one a non-empty string, and
 * `fixed` attributes equal to the partition (or sort-key prefix) the list reads.
 */
export interface CursorShape {
  attributes: readonly string[];
  /** Attribute -> the value it must have (the partition the Query reads). */
  equals?: Readonly<Record<string, string>>;
  /** Attribute -> the prefix it must start with (a `begins_with` key condition). */
  startsWith?: Readonly<Record<string, string>>;
}

/**
 * The cursor comes back from the client, so anyone can craft one: it is checked against the
 * list's shape before DynamoDB sees it. A crafted key within the shape only moves the start of
 * the page inside the same partition, which any caller of the list may read anyway.
 */
export function decodeCursor(cursor: string | undefined, shape: CursorShape): Record<string, string> | undefined {
  if (cursor === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badRequest(INVALID_CURSOR, { cursor: INVALID_CURSOR });
  }
  if (!isCursorOf(value, shape)) throw badRequest(INVALID_CURSOR, { cursor: INVALID_CURSOR });
  return value;
}

function isCursorOf(value: unknown, shape: CursorShape): value is Record<string, string> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  const names = Object.keys(record);
  if (names.length !== shape.attributes.length || !shape.attributes.every((name) => names.includes(name))) {
    return false;
  }
  if (!names.every((name) => typeof record[name] === 'string' && record[name] !== '')) return false;
  const equal = Object.entries(shape.equals ?? {}).every(([name, expected]) => record[name] === expected);
  const prefixed = Object.entries(shape.startsWith ?? {}).every(([name, prefix]) =>
    (record[name] as string).startsWith(prefix),
  );
  return equal && prefixed;
}

export const INVALID_CURSOR = 'The page cursor is not valid; start again from the first page.';

/**
 * One page of an index list (`{ index, partition }` from shared/src/db/table.ts `lists`), newest first;
 * the cursor is checked against the list's key shape and partition (decodeCursor).
 */
export async function queryList(
  list: { index: string; partition: string },
  cursor: string | undefined,
  limit: number,
  startsWith: string,
  sortRange?: { from: string; to: string },
) {
  const result = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: list.index,
      KeyConditionExpression: sortRange ? '#pk = :partition AND #sk BETWEEN :from AND :to' : '#pk = :partition',
      ExpressionAttributeNames: { '#pk': `${list.index}pk`, ...(sortRange ? { '#sk': `${list.index}sk` } : {}) },
      ExpressionAttributeValues: {
        ':partition': list.partition,
        ...(sortRange ? { ':from': sortRange.from, ':to': sortRange.to } : {}),
      },
      ScanIndexForward: false,
      Limit: limit,
      ExclusiveStartKey: decodeCursor(cursor, {
        attributes: ['pk', 'sk', `${list.index}pk`, `${list.index}sk`],
        equals: { [`${list.index}pk`]: list.partition },
        startsWith: { pk: startsWith },
      }),
    }),
  );
  return { items: result.Items ?? [], nextCursor: encodeCursor(result.LastEvaluatedKey) };
}

/** A Query of the portal's table: its name is filled in, and paging is `queryPages`' own. */
export type TableQuery = Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>;

/** Every page `read` gives, each next one from the last one's LastEvaluatedKey. */
async function* pagesOf<Page extends { LastEvaluatedKey?: Record<string, unknown> }>(
  read: (start: Record<string, unknown> | undefined) => Promise<Page>,
): AsyncGenerator<Page> {
  let start: Record<string, unknown> | undefined;
  do {
    const page = await read(start);
    yield page;
    start = page.LastEvaluatedKey;
  } while (start);
}

/**
 * Every page of a Query of the table, in order, each next one from the last one's
 * LastEvaluatedKey. A caller that has what it needs leaves the loop (`break`, `return`) and no
 * further page is read. The one paging loop of the adapters (a page is at most 1 MB).
 */
export const queryPages = (query: TableQuery): AsyncGenerator<QueryCommandOutput> =>
  pagesOf((start) => db().send(new QueryCommand({ ...query, TableName: tableName(), ExclusiveStartKey: start })));

/** Every item a Query of the table finds, all its pages read. */
export async function queryAll(query: TableQuery): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for await (const page of queryPages(query)) items.push(...(page.Items ?? []));
  return items;
}

/** Every page of a Scan of the table, as `queryPages` (the one-off upgrades that read the whole table). */
export const scanPages = (
  scan: Omit<ScanCommandInput, 'TableName' | 'ExclusiveStartKey'>,
): AsyncGenerator<ScanCommandOutput> =>
  pagesOf((start) => db().send(new ScanCommand({ ...scan, TableName: tableName(), ExclusiveStartKey: start })));

/**
 * Counter attributes the single counter items of before were written with (a misspelling); their
 * values are still read into the right name's sum. Nothing writes them any more.
 */
const LEGACY_COUNTER_NAMES: Record<string, string> = {
  notFufilled: 'notFulfilled',
  toBePayedCount: 'toBePaidCount',
  toBePayedCents: 'toBePaidCents',
};

/**
 * Every counter shard of a partition (and the single item of before), summed per attribute: one
 * Query of at most COUNTER_SHARDS + 1 small items.
 */
export async function counterSums(partition: string): Promise<Record<string, number>> {
  const sums: Record<string, number> = {};
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': partition },
    ConsistentRead: true,
  });
  for (const item of items) {
    for (const [name, value] of Object.entries(item)) {
      if (typeof value !== 'number') continue;
      const counted = LEGACY_COUNTER_NAMES[name] ?? name;
      sums[counted] = (sums[counted] ?? 0) + value;
    }
  }
  return sums;
}

export type TransactItems = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>;

/** Tries of a transaction that meets another one writing the same items (the counters are written by every move). */
export const MAX_CONFLICT_TRIES = 5;

/**
 * One transaction: ok, or the items whose condition failed (`failedAt`, with the error, for a
 * caller that decides on some of them only). A conflict with another transaction wrote nothing
 * and the conditions still decide: the same transaction again after a wait, up to MAX_CONFLICT_TRIES.
 */
export async function transact(
  items: TransactItems,
): Promise<{ ok: true } | { ok: false; failedAt: number[]; error: unknown }> {
  for (let attempt = 0; ; attempt++) {
    try {
      await db().send(new TransactWriteCommand({ TransactItems: items }));
      return { ok: true };
    } catch (error) {
      const failedAt = (cancellationReasons(error) ?? []).flatMap((reason, index) =>
        reason.Code === 'ConditionalCheckFailed' ? [index] : [],
      );
      if (failedAt.length) return { ok: false, failedAt, error };
      if (isTransactionConflict(error) && attempt < MAX_CONFLICT_TRIES) {
        await backoff(attempt);
        continue;
      }
      throw error;
    }
  }
}
