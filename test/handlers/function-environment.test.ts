import { describe, expect, it, vi } from 'vitest';
import { lambdaContext, toApiEvent } from '../../infra/local/api-event';
import { LOCAL_IMPORTS_BUCKET } from '../../infra/local/s3';

/**
 * The handler tests' harness gives each handler its own function's environment from the
 * synthesized template (function-environment.ts), as AWS does: a handler reading a variable its
 * function does not set reads nothing here too. The logger's level is read when its module loads,
 * so this file sets it before the handlers are imported.
 */
process.env.POWERTOOLS_LOG_LEVEL = 'WARN';
// The file's imports bucket, as the catalogue tests set it: the template sets it on the upload functions only.
process.env.IMPORTS_BUCKET = LOCAL_IMPORTS_BUCKET;
const { handler: createProductUpload } = await import('../../functions/src/handlers/create-product-upload');
const { allItems, auth, call, tokenFor, uniqueIp } = await import('./helpers');
const { functionEnvironment, runAs } = await import('./function-environment');

describe('each handler sees its own function’s environment', () => {
  it('a variable of the test process that the function’s template does not set is not there; its own are', () => {
    process.env.SET_BY_NO_STACK = 'leaked';
    try {
      const orders = runAs('getOrders', () => ({ ...process.env }));
      expect(orders.SET_BY_NO_STACK).toBeUndefined();
      expect(orders.IMPORTS_BUCKET).toBeUndefined();
      // The outbox stands in for SES only where the stack sets MAIL_FROM.
      expect(orders.MAIL_OUTBOX_DIR).toBeUndefined();
      expect(orders.TABLE_NAME).toBe(process.env.TABLE_NAME);
      expect(orders.AWS_LAMBDA_FUNCTION_NAME).toBe('getOrders');

      const upload = functionEnvironment('createProductUpload');
      expect(upload.IMPORTS_BUCKET).toBe(LOCAL_IMPORTS_BUCKET);
      expect(upload.SET_BY_NO_STACK).toBeUndefined();
      const signup = functionEnvironment('signup');
      expect(signup.MAIL_OUTBOX_DIR).toBe(process.env.MAIL_OUTBOX_DIR);
      expect(signup.IMPORTS_BUCKET).toBeUndefined();
      // Outside an invocation the test process keeps its own.
      expect(process.env.SET_BY_NO_STACK).toBe('leaked');
    } finally {
      delete process.env.SET_BY_NO_STACK;
    }
  });

  it('a handler reading a variable its function does not set fails, as in AWS, and writes nothing', async () => {
    const admin = await tokenFor(true);
    const body = { fileName: 'big.csv', size: 20_000_000 };
    // As its own function (the template gives createProductUpload the imports bucket): the presigned POST.
    const own = await call(createProductUpload, { body, headers: auth(admin), path: '/api/createProductUpload' });
    expect(own.status).toBe(200);

    // The same code as a function the template gives no IMPORTS_BUCKET (saveMailPreferences may write the table).
    const before = await allItems();
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (lines.push(String(chunk)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (lines.push(String(chunk)), true));
    let result;
    try {
      const event = toApiEvent({
        method: 'POST',
        path: '/api/createProductUpload',
        headers: { 'content-type': 'application/json', ...auth(admin) },
        body: Buffer.from(JSON.stringify(body)),
        sourceIp: uniqueIp(),
      });
      result = (await runAs('saveMailPreferences', () =>
        createProductUpload(event, lambdaContext('test', 60_000)),
      )) as { statusCode: number };
    } finally {
      vi.restoreAllMocks();
    }
    expect(result.statusCode).toBe(500);
    expect(lines.join('')).toContain('Environment is incomplete: set IMPORTS_BUCKET');
    expect(await allItems()).toEqual(before);
  });
});
