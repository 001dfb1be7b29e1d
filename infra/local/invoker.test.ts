import fs, { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { env } from '../../functions/src/config/env';
import { installFunctionEnvironments, lambdaEnvironment } from './function-env';
import { invokeEvent, invokeFunction } from './invoker';
import { installReadOnlyFileSystem } from './read-only-fs';
import { root } from './start';

/** What a function is locally: its own environment, its timeout with Lambda's lines, a file system read-only outside /tmp. */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const standIns = {
  region: 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  dynamoEndpoint: 'http://127.0.0.1:1',
  mailOutboxDir: '/tmp/outbox-for-the-test',
  logLevel: 'WARN',
};
let uninstall: () => void;
beforeAll(() => {
  uninstall = installFunctionEnvironments();
  installReadOnlyFileSystem();
});
afterAll(() => uninstall());

describe("a function's environment", () => {
  it('is what its stack sets and the stand-ins, nothing else of the process; env() is parsed per function', async () => {
    process.env.SOMETHING_OF_THIS_PROCESS = 'only here';
    const mailer = {
      name: 'signup',
      memoryMb: 1024,
      timeoutSeconds: 10,
      environment: lambdaEnvironment(
        {
          name: 'signup',
          memoryMb: 1024,
          environment: { TABLE_NAME: 'table-a', MAIL_FROM: 'Portal <no-reply@example.com>', IMAGES_BUCKET: 'pictures' },
        },
        standIns,
      ),
    };
    const reader = {
      name: 'getOrders',
      memoryMb: 512,
      timeoutSeconds: 10,
      environment: lambdaEnvironment(
        { name: 'getOrders', memoryMb: 512, environment: { TABLE_NAME: 'table-b' } },
        standIns,
      ),
    };
    const look = async () => ({
      mailFrom: process.env.MAIL_FROM,
      outbox: process.env.MAIL_OUTBOX_DIR,
      own: process.env.SOMETHING_OF_THIS_PROCESS,
      table: env().TABLE_NAME,
      images: env().IMAGES_BUCKET,
      later: await new Promise((resolve) => setTimeout(() => resolve(process.env.TABLE_NAME), 5)),
    });
    const [a, b] = await Promise.all([invokeFunction(mailer, look, {}), invokeFunction(reader, look, {})]);
    expect(a.outcome).toEqual({
      kind: 'result',
      result: {
        mailFrom: 'Portal <no-reply@example.com>',
        outbox: standIns.mailOutboxDir,
        own: undefined,
        table: 'table-a',
        // Without the test image server the import hosts no pictures here (the browser suite's portal).
        images: undefined,
        later: 'table-a',
      },
    });
    expect(b.outcome).toEqual({
      kind: 'result',
      result: {
        mailFrom: undefined,
        outbox: undefined,
        own: undefined,
        table: 'table-b',
        images: undefined,
        later: 'table-b',
      },
    });
    // Outside an invocation the process keeps its own.
    expect(process.env.SOMETHING_OF_THIS_PROCESS).toBe('only here');
    delete process.env.SOMETHING_OF_THIS_PROCESS;
  });
});

describe("an event function's timeout", () => {
  it('stops waiting at the timeout with Lambda’s line and a REPORT line with the memory size, and fails the event', async () => {
    const lines: string[] = [];
    let finished = false;
    const importProducts = { name: 'importProducts', memoryMb: 1769, timeoutSeconds: 1 };
    const ran = invokeEvent(
      importProducts,
      async () => {
        await sleep(2_500);
        finished = true;
      },
      {},
      (line) => lines.push(line),
    );
    await expect(ran).rejects.toThrow('Task timed out after 1.00 seconds');
    expect(finished).toBe(false);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^importProducts [0-9a-f-]{36} Task timed out after 1\.00 seconds$/);
    expect(lines[1]).toMatch(
      /^importProducts REPORT RequestId: [0-9a-f-]{36}\tDuration: [\d.]+ ms\tBilled Duration: \d+ ms\tMemory Size: 1769 MB\tMax Memory Used: \d+ MB$/,
    );
    // Its context counted down from the function's timeout.
    const seen = await invokeFunction(
      importProducts,
      async (_event: unknown, context) => context.getRemainingTimeInMillis(),
      {},
    );
    expect(seen.outcome.kind).toBe('result');
    expect((seen.outcome as { result: number }).result).toBeLessThanOrEqual(1_000);
    expect((seen.outcome as { result: number }).result).toBeGreaterThan(0);
  });
});

describe("a function's file system", () => {
  const outside = join(root, 'cdk.out', 'read-only-test');
  beforeAll(() => rmSync(outside, { recursive: true, force: true }));
  afterAll(() => rmSync(outside, { recursive: true, force: true }));
  const fn = { name: 'anyCall', memoryMb: 512, timeoutSeconds: 10 };

  it('is read-only outside /tmp, as on Lambda (EROFS), in every form of the calls; /tmp is writable', async () => {
    const cjsFs = createRequire(import.meta.url)('fs') as typeof fs;
    const attempt = async (write: () => unknown): Promise<string | undefined> => {
      const invocation = await invokeFunction(fn, async () => write(), {});
      const { outcome } = invocation;
      if (outcome.kind === 'error') return (outcome.error as NodeJS.ErrnoException).code;
      return outcome.kind === 'result' ? undefined : outcome.kind;
    };
    const file = join(outside, 'note.txt');
    expect(await attempt(() => writeFileSync(file, 'x'))).toBe('EROFS');
    expect(await attempt(() => writeFile(file, 'x'))).toBe('EROFS');
    expect(await attempt(() => fs.promises.mkdir(outside, { recursive: true }))).toBe('EROFS');
    expect(
      await attempt(
        () =>
          new Promise<void>((resolve, reject) =>
            fs.appendFile(file, 'x', (error) => (error ? reject(error) : resolve())),
          ),
      ),
    ).toBe('EROFS');
    expect(await attempt(() => fs.createWriteStream(file))).toBe('EROFS');
    expect(await attempt(() => fs.openSync(file, 'w'))).toBe('EROFS');
    // A deployed bundle is CommonJS: `require('fs')` is guarded too.
    expect(await attempt(() => cjsFs.writeFileSync(file, 'x'))).toBe('EROFS');
    expect(existsSync(outside)).toBe(false);
    // Reading stays allowed.
    expect(await attempt(() => fs.readFileSync(join(root, 'package.json')))).toBeUndefined();
    // /tmp is the function's.
    const scratch = join('/tmp', `portal-read-only-test-${process.pid}.txt`);
    expect(await attempt(() => writeFileSync(scratch, 'x'))).toBeUndefined();
    expect(await attempt(() => fs.promises.rm(scratch))).toBeUndefined();
    expect(existsSync(scratch)).toBe(false);
    // Outside an invocation (the portal's own engines and seeds) nothing changes.
    mkdirSync(outside, { recursive: true });
    writeFileSync(file, 'x');
    expect(existsSync(file)).toBe(true);
  });

  it('lets the mail outbox (standing in for SES) write where the function has MAIL_FROM', async () => {
    const outbox = join(outside, 'outbox');
    const mailer = {
      ...fn,
      environment: lambdaEnvironment(
        { ...fn, environment: { MAIL_FROM: 'Portal <no-reply@example.com>' } },
        { ...standIns, mailOutboxDir: outbox },
      ),
    };
    const invocation = await invokeFunction(
      mailer,
      async () => {
        fs.mkdirSync(outbox, { recursive: true });
        fs.writeFileSync(join(outbox, 'mail.json'), '{}');
        return fs.existsSync(join(outbox, 'mail.json'));
      },
      {},
    );
    expect(invocation.outcome).toEqual({ kind: 'result', result: true });
  });
});
