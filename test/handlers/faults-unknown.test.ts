import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { DynamoFaults } from './dynamo-faults';
import { auth, call, tokenFor } from './helpers';

/**
 * An SDK error no handler expects: the caller gets a 500 with a reference and nothing else; the
 * detail (the error's name, its message naming the table, the stack) goes to the log line that
 * carries the same reference. Errors the stack does know (throttling outlasting the SDK's
 * retries) are answered in words and logged as warnings. The logger reads its level once, when
 * its module loads, so this file sets it before the handlers are imported.
 */
process.env.POWERTOOLS_LOG_LEVEL = 'WARN';
const lines: string[] = [];
const capture = (chunk: string | Uint8Array) => {
  lines.push(String(chunk));
  return true;
};
const { handler: getOrders } = await import('../../functions/src/handlers/get-orders');
const { BUSY } = await import('../../functions/src/http/api-handler');
const admin = await tokenFor(true);
const table = process.env.TABLE_NAME!;

let faults: DynamoFaults | undefined;
afterEach(() => {
  faults?.restore();
  faults = undefined;
  vi.restoreAllMocks();
  lines.length = 0;
});
afterAll(() => vi.restoreAllMocks());

/** Calls getOrders with every stdout and stderr write captured. */
async function captured() {
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  try {
    return await call(getOrders, { body: {}, headers: auth(admin) });
  } finally {
    vi.restoreAllMocks();
  }
}
const logged = () =>
  lines
    .flatMap((line) => line.split('\n'))
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('an SDK error no handler expects', () => {
  it('answers 500 with a request id and no stack, table name or SDK message; the detail goes to the log', async () => {
    const denied = `User: arn:aws:sts::123456789012:assumed-role/portal-getOrders/fn is not authorized to perform: dynamodb:Query on resource: arn:aws:dynamodb:us-east-1:123456789012:table/${table}/index/gsi2`;
    faults = new DynamoFaults().fail('QueryCommand', 'AccessDeniedException', { body: { Message: denied } });

    const result = await captured();
    expect(faults.log.failed).toEqual(['QueryCommand']);
    expect(result.status).toBe(500);
    const correlationId = String(result.body.correlationId);
    expect(correlationId).toMatch(/\S/);
    expect(result.body).toEqual({
      message: `Something went wrong on our side. Try again; if it keeps failing, quote reference ${correlationId}.`,
      correlationId,
    });
    const text = JSON.stringify(result);
    for (const secret of [table, 'AccessDenied', 'arn:', 'dynamodb', 'gsi2', 'not authorized', '    at ', '.ts:']) {
      expect(text).not.toContain(secret);
    }

    // The log line with the same reference holds what happened, for whoever is quoted the reference.
    const entry = logged().find((line) => line.message === 'unexpected error');
    expect(entry).toMatchObject({ level: 'ERROR', correlationId, function_request_id: correlationId });
    const error = entry!.error as { name: string; message: string; stack: string };
    expect(error.name).toBe('AccessDeniedException');
    expect(error.message).toContain(table);
    expect(error.stack).toMatch(/\n\s+at /);
  });

  it('throttling that outlasts the SDK retries answers 503 with Retry-After in words; the detail is a warning in the log', async () => {
    faults = new DynamoFaults().fail('QueryCommand', 'ProvisionedThroughputExceededException', { which: 'all' });
    const result = await captured();
    // The SDK tried more than once (with its backoff) before giving up.
    expect(faults.log.failed.length).toBeGreaterThan(1);
    expect(result.status).toBe(503);
    expect(result.body).toEqual({ message: BUSY });
    expect(result.headers['retry-after']).toBe('5');
    const entries = logged();
    expect(entries.find((line) => line.message === 'unexpected error')).toBeUndefined();
    expect(entries.find((line) => line.level === 'WARN')).toMatchObject({
      error: { name: 'ProvisionedThroughputExceededException' },
      status: 503,
    });
  });
});
