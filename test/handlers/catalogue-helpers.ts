import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { S3Event } from 'aws-lambda';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, inject } from 'vitest';
import { handler as importProducts } from '../../functions/src/handlers/s3/import-products';
import { handler as upload } from '../../functions/src/handlers/upload-products';
import { importKey } from '../../functions/src/imports/jobs';
import { localAws } from '../../infra/local/dynamo';
import { LOCAL_IMPORTS_BUCKET, startS3 } from '../../infra/local/s3';
import { eventKey, forwardObjectCreated } from '../../infra/local/s3-events';
import { asFunction, auth, call, tokenFor, type CallResult } from './helpers';

/** Re-exported for the files that import everything from here. */
export { auth, tokenFor };

export const fixtures = join(import.meta.dirname, '..', 'fixtures', 'csv');
export const fixture = (name: string): Buffer => readFileSync(join(fixtures, name));

process.env.IMPORTS_BUCKET = LOCAL_IMPORTS_BUCKET;

/**
 * The real S3 path, as npm start runs it: each test file that imports this module gets its own
 * S3 server (its events are emitted in this process), and the local event forwarder hands every
 * created object to the import handler, with Lambda's retries. A test waits on the forwarder
 * (`s3Events.idle()`), never on a clock: the S3 server emits the event before it answers the PUT.
 */
const s3Dir = mkdtempSync(join(tmpdir(), 'portal-s3-file-'));
const localS3 = await startS3({ dataDir: s3Dir, credentials: inject('s3Credentials') });
process.env.S3_ENDPOINT = localS3.endpoint;
afterAll(async () => {
  await localS3.stop();
  rmSync(s3Dir, { recursive: true, force: true });
});

/** What the forwarder said about failed deliveries (each try), for tests of imports that fail. */
export const deliveryFailures: string[] = [];
let holding = false;
const forwarder = forwardObjectCreated(
  localS3.server,
  async (event) => {
    if (!holding) await asFunction('importProducts', () => importProducts(event));
  },
  (line) => void deliveryFailures.push(line),
  // Lambda waits about a minute between retries; here the retries follow at once.
  1,
);

export const s3Events = {
  /** Resolves when every S3 event so far has been handled (or has used up its retries). */
  idle: () => forwarder.idle(),
  /**
   * Runs `put` with S3's events held back (dropped), for tests that deliver the event themselves
   * (a redelivery) or run the import with their own dependencies.
   */
  async withoutDelivery<T>(put: () => Promise<T>): Promise<T> {
    holding = true;
    try {
      return await put();
    } finally {
      holding = false;
    }
  },
};

/** A multipart/form-data body exactly as a browser's FormData sends it. */
export async function multipart(fileName: string, content: Buffer | string, field = 'file') {
  const form = new FormData();
  form.append(
    field,
    new Blob([typeof content === 'string' ? content : new Uint8Array(content)], { type: 'text/csv' }),
    fileName,
  );
  const request = new Request('http://localhost/api/products', { method: 'POST', body: form });
  return { body: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}

export async function uploadCsv(token: string, fileName: string, content: Buffer | string): Promise<CallResult> {
  const form = await multipart(fileName, content);
  return call(upload, {
    rawBody: form.body,
    contentType: form.contentType,
    headers: auth(token),
    path: '/api/products',
  });
}

const s3 = new S3Client({
  region: localAws.region,
  credentials: localS3.credentials,
  endpoint: localS3.endpoint,
  forcePathStyle: true,
});

/** The ObjectCreated event S3 sends for an object (key URL-encoded, as S3 does): for tests of a redelivered event. */
export async function objectCreatedEvent(key: string): Promise<S3Event> {
  const head = await s3.send(new HeadObjectCommand({ Bucket: LOCAL_IMPORTS_BUCKET, Key: key }));
  return {
    Records: [
      {
        eventVersion: '2.1',
        eventSource: 'aws:s3',
        awsRegion: 'us-east-1',
        eventTime: new Date().toISOString(),
        eventName: 'ObjectCreated:Put',
        userIdentity: { principalId: 'test' },
        requestParameters: { sourceIPAddress: '127.0.0.1' },
        responseElements: { 'x-amz-request-id': 'test', 'x-amz-id-2': 'test' },
        s3: {
          s3SchemaVersion: '1.0',
          configurationId: 'imports',
          bucket: {
            name: LOCAL_IMPORTS_BUCKET,
            ownerIdentity: { principalId: 'test' },
            arn: `arn:aws:s3:::${LOCAL_IMPORTS_BUCKET}`,
          },
          object: {
            key: eventKey(key),
            size: head.ContentLength ?? 0,
            eTag: (head.ETag ?? '').replace(/"/g, ''),
            sequencer: Date.now().toString(16),
          },
        },
      },
    ],
  };
}

/**
 * Upload through /api/products: the handler stores the file in the S3 server, whose event the
 * forwarder hands to the import function, as S3 does; resolves when that import has run.
 */
export async function importCsv(token: string, fileName: string, content: Buffer | string) {
  const uploaded = await uploadCsv(token, fileName, content);
  if (uploaded.status !== 200) throw new Error(`upload failed: ${JSON.stringify(uploaded.body)}`);
  await s3Events.idle();
  const job = uploaded.body.job as { id: string };
  return { jobId: job.id, key: importKey(job.id, fileName) };
}

/** Uploads through /api/products with S3's event held back: the test runs the import itself. */
export async function uploadHeld(token: string, fileName: string, content: Buffer | string) {
  const uploaded = await s3Events.withoutDelivery(() => uploadCsv(token, fileName, content));
  if (uploaded.status !== 200) throw new Error(`upload failed: ${JSON.stringify(uploaded.body)}`);
  const job = uploaded.body.job as { id: string };
  return { jobId: job.id, key: importKey(job.id, fileName) };
}
