import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { S3Event } from 'aws-lambda';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localAws } from '../../infra/local/dynamo';
import { LOCAL_IMPORTS_BUCKET, startS3, type LocalS3 } from '../../infra/local/s3';
import { invokeEvent } from '../../infra/local/invoker';
import { forwardObjectCreated } from '../../infra/local/s3-events';

/** The local stand-in for the bucket notification: S3 server events reach the handler as S3 would send them. */
let s3: LocalS3;
let dir: string;
let client: S3Client;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-s3-events-'));
  s3 = await startS3({ dataDir: join(dir, 's3'), spoolDir: join(dir, 's3-incoming') });
  client = new S3Client({
    region: localAws.region,
    credentials: s3.credentials,
    endpoint: s3.endpoint,
    forcePathStyle: true,
  });
});
afterAll(async () => {
  await s3.stop();
  rmSync(dir, { recursive: true, force: true });
});

const put = (key: string) =>
  client.send(new PutObjectCommand({ Bucket: LOCAL_IMPORTS_BUCKET, Key: key, Body: 'a,b\n1,2\n' }));

describe('local S3 ObjectCreated events', () => {
  it('hand every created object to the handler, with the key URL-encoded as S3 does', async () => {
    const received: S3Event[] = [];
    const forwarder = forwardObjectCreated(s3.server, async (event) => void received.push(event));
    // The S3 server emits the event before it answers the PUT: no waiting for it to arrive.
    await put('imports/abc/my catalogue+v2.csv');
    await forwarder.idle();
    const record = received.at(-1)!.Records[0]!;
    expect(record.eventName).toMatch(/^ObjectCreated:/);
    expect(record.s3.bucket.name).toBe(LOCAL_IMPORTS_BUCKET);
    expect(record.s3.object.key).toBe('imports%2Fabc%2Fmy+catalogue%2Bv2.csv');
    // The import handler's decoding gives the key back exactly.
    expect(decodeURIComponent(record.s3.object.key.replace(/\+/g, ' '))).toBe('imports/abc/my catalogue+v2.csv');
    expect(record.s3.object.eTag).toMatch(/^[0-9a-f]{32}$/);
  });

  it('retry a failing handler twice, as Lambda does for asynchronous invocations', async () => {
    let calls = 0;
    const forwarder = forwardObjectCreated(
      s3.server,
      async () => {
        calls += 1;
        throw new Error('boom');
      },
      () => undefined,
      1,
    );
    await put('imports/def/fails.csv');
    await forwarder.idle();
    expect(calls).toBe(3);
  });

  it('stop the import at its function’s timeout, as Lambda does, log it with a REPORT line, and retry the event', async () => {
    const lines: string[] = [];
    let finished = 0;
    // The import function as the template makes it, with a timeout of 1 s (900 s in the stack).
    const importProducts = { name: 'importProducts', memoryMb: 1769, timeoutSeconds: 1 };
    const forwarder = forwardObjectCreated(
      s3.server,
      (event) =>
        invokeEvent(
          importProducts,
          async () => {
            await new Promise((resolve) => setTimeout(resolve, 1_500));
            finished += 1;
          },
          event,
          (line) => lines.push(line),
        ),
      (line) => lines.push(line),
      1,
    );
    await put('imports/ghi/slow.csv');
    await forwarder.idle();
    const timedOut = lines.filter((line) =>
      /^importProducts [0-9a-f-]{36} Task timed out after 1\.00 seconds$/.test(line),
    );
    expect(timedOut).toHaveLength(3);
    expect(lines.filter((line) => /\tMemory Size: 1769 MB\tMax Memory Used: \d+ MB$/.test(line))).toHaveLength(3);
    expect(lines.filter((line) => line.includes('import of imports/ghi/slow.csv failed'))).toEqual([
      'import of imports/ghi/slow.csv failed (try 1 of 3): Task timed out after 1.00 seconds',
      'import of imports/ghi/slow.csv failed (try 2 of 3): Task timed out after 1.00 seconds',
      'import of imports/ghi/slow.csv failed (try 3 of 3): Task timed out after 1.00 seconds',
    ]);
    // Each try was answered as timed out before its handler finished.
    expect(finished).toBeLessThan(3);
  });
});
