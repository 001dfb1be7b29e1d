import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { getOrdersNotShipped } from '@portal/shared/api/calls/get-orders-not-shipped';
import { afterEach, describe, expect, it, vi } from 'vitest';

// Before the logger module loads (it reads its level once): this file reads the error lines.
vi.hoisted(() => {
  process.env.POWERTOOLS_LOG_LEVEL = 'ERROR';
});

import { db, tableName } from '../../functions/src/adapters/dynamo-client';
import { apiHandler } from '../../functions/src/composition';
import { runAsFunction } from '../../infra/local/iam/enforce';
import { auth, call, tokenFor } from './helpers';

/**
 * The 500 path: an error the code did not expect (here a read of a table named after ours that the
 * function's role does not name: AccessDeniedException, as AWS answers it, infra/local/iam)
 * answers a 500 whose body says only that something went wrong and gives a correlation id; the
 * log line carries the same id and the detail.
 */
const missingTable = () => `${tableName()}-missing`;
const failing = apiHandler(getOrdersNotShipped, async () => {
  await db().send(new GetCommand({ TableName: missingTable(), Key: { pk: 'x', sk: 'y' } }));
  return {} as never;
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** Every line the logger prints while `run` runs (it writes JSON lines to stdout and stderr). */
async function logLinesOf(run: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const lines: string[] = [];
  const capture = (chunk: unknown) => {
    lines.push(String(chunk));
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  await run();
  vi.restoreAllMocks();
  return lines
    .flatMap((chunk) => chunk.split('\n'))
    .filter((line) => line.trim().startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('an unexpected error', () => {
  it('is a 500 with a correlation id, and no stack, table name or message of the underlying error', async () => {
    // The underlying error, as the call's function gets it.
    const underlying = await runAsFunction('getOrdersNotShipped', () =>
      db().send(new GetCommand({ TableName: missingTable(), Key: { pk: 'x', sk: 'y' } })),
    ).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(underlying?.name).toBe('AccessDeniedException');

    const admin = await tokenFor(true);
    let result!: Awaited<ReturnType<typeof call>>;
    const errorLines = await logLinesOf(async () => {
      result = await call(failing, { body: {}, headers: auth(admin) });
    });
    expect(result.status).toBe(500);
    expect(result.headers['content-type']).toMatch(/application\/json/);
    const correlationId = String(result.body.correlationId);
    expect(correlationId).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.body).toEqual({
      message: `Something went wrong on our side. Try again; if it keeps failing, quote reference ${correlationId}.`,
      correlationId,
    });
    const text = JSON.stringify(result.body);
    expect(text).not.toContain(tableName());
    expect(text).not.toContain(underlying!.message);
    expect(text).not.toMatch(/AccessDenied|not authorized|\bat .+:\d+:\d+|node_modules|\.ts\b/);

    // The log line has the id, and the detail the answer leaves out.
    const logged = errorLines.filter((line) => line.level === 'ERROR');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ message: 'unexpected error', correlationId });
    expect(JSON.stringify(logged[0])).toContain(underlying!.message);
  });
});
