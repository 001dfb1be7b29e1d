import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { env } from '../config/env';
import { badRequest } from '../errors';

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

/** True when a TransactWrite was cancelled because the condition of item `index` failed. */
export function conditionFailedAt(error: unknown, index: number): boolean {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return false;
  const reasons = (error as Error & { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
  return reasons?.[index]?.Code === 'ConditionalCheckFailed';
}

export function isConditionFailed(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}

/** Waits 2^attempt * base ms with full jitter, so retries from many writers spread out. */
export const backoff = (attempt: number, baseMs = 50, capMs = 5_000): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(capMs, baseMs * 2 ** attempt)));

const MAX_BATCH_ATTEMPTS = 10;

/**
 * BatchWrites any number of requests, 25 per BatchWriteItem and those requests side by side,
 * retrying unprocessed items with backoff and jitter.
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
        const result = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
        pending = (result.UnprocessedItems?.[tableName()] ?? []) as Record<string, unknown>[];
      }
    }),
  );
}

/** BatchGets up to 100 keys, retrying unprocessed ones with backoff and jitter. */
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
      const result = await db().send(
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

export function decodeCursor(
  cursor: string | undefined,
  allowed: readonly string[],
): Record<string, string> | undefined {
  if (cursor === undefined) return undefined;
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const entries = Object.entries(value);
      if (entries.length > 0 && entries.every(([name, v]) => allowed.includes(name) && typeof v === 'string')) {
        return value as Record<string, string>;
      }
    }
  } catch {
    // fall through to the error below
  }
  throw badRequest(INVALID_CURSOR, { cursor: INVALID_CURSOR });
}

export const INVALID_CURSOR = 'The page cursor is not valid; start again from the first page.';
