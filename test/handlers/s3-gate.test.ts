import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import type { S3Event } from 'aws-lambda';
import { request } from 'node:http';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { CSV_COLUMNS } from '../../shared/src/domain/csv-product';
import { handler as createUpload } from '../../functions/src/handlers/create-product-upload';
import { handler as getImportJob } from '../../functions/src/handlers/get-import-job';
import { handler as importProducts } from '../../functions/src/handlers/s3/import-products';
import { localAws } from '../../infra/local/dynamo';
import { LOCAL_IMPORTS_BUCKET, startS3, type LocalS3 } from '../../infra/local/s3';
import { forwardObjectCreated, type EventForwarder } from '../../infra/local/s3-events';
import { auth, tokenFor } from './catalogue-helpers';
import { asFunction, call } from './helpers';
import { routes } from '../../functions/src/routes';
import { functionOfSessionToken } from '../../infra/local/function-env';
import { synthesizeLocalAssembly, type LocalAssembly } from '../../infra/local/iam/assembly';
import { deniedUpload } from '../../infra/local/iam/enforce';
import { demoAccounts } from '../../infra/local/start';
import { localContexts } from '../../infra/local/template';

/**
 * The local S3 server checks uploads as S3 does (s3-gate.ts): a presigned POST made by the API
 * goes through and its event runs the import; a tampered, expired or oversize one, an anonymous
 * write and a key that would leave the data folder are refused with S3's XML error, store nothing
 * and start no import. A private S3 server, so that its events reach the real import handler here.
 */
let root = '';
let s3: LocalS3;
let forwarder: EventForwarder;
let client: S3Client;
let admin = '';
let events = 0;
let imports = 0;
/** The stack the uploads are authorized against: the run's (setup.ts), or a test's with a grant removed. */
let uploadAssembly: LocalAssembly | undefined;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'portal-s3-gate-'));
  // The handlers sign with the run's key (setup.ts), as the portal's functions sign with the data folder's.
  s3 = await startS3({
    dataDir: join(root, 's3'),
    spoolDir: join(root, 's3-incoming'),
    credentials: inject('s3Credentials'),
    // As npm start's (start.ts): a POST upload is authorized as the function that signed it.
    authorizeUpload: async (token, bucket, key) => {
      const signer = functionOfSessionToken(token);
      return signer ? deniedUpload(signer, bucket, key, uploadAssembly) : undefined;
    },
  });
  // Before any handler runs: the functions read their environment once.
  process.env.S3_ENDPOINT = s3.endpoint;
  (s3.server as unknown as NodeJS.EventEmitter).on('event', () => (events += 1));
  forwarder = forwardObjectCreated(s3.server, async (event: S3Event) => {
    imports += 1;
    await asFunction('importProducts', () => importProducts(event));
  });
  client = new S3Client({
    region: localAws.region,
    credentials: s3.credentials,
    endpoint: s3.endpoint,
    forcePathStyle: true,
  });
  admin = await tokenFor(true);
});
afterAll(async () => {
  await s3.stop();
  rmSync(root, { recursive: true, force: true });
});

/** Every file under the test's folder, relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .sort();
}

let before: { files: string[]; events: number; imports: number };
beforeEach(async () => {
  await forwarder.idle();
  before = { files: filesUnder(root), events, imports };
});

/** Nothing was stored, no event and no import happened, no file appeared anywhere (spool included). */
async function expectNothingStored(): Promise<void> {
  await forwarder.idle();
  expect({ files: filesUnder(root), events, imports }).toEqual(before);
  expect(readdirSync(join(root, 's3-incoming'))).toEqual([]);
  for (const outside of [join(root, 'escape.csv'), join(root, '..', 'escape.csv'), join(tmpdir(), 'escape.csv')]) {
    expect(existsSync(outside), outside).toBe(false);
  }
}

const spuNo = () => `GATE-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
const csv = (spu: string) =>
  `${CSV_COLUMNS.join(',')}\nGate Mug,Brandly,24.99,12.95,https://img.example.test/${spu}/1.jpg,,,,,,,<p>Hot.</p>,https://supplier.example.test/${spu},${spu}\n`;

async function presigned(fileName = 'large.csv') {
  const result = await call(createUpload, { body: { fileName, size: 2048 }, headers: auth(admin) });
  expect(result.status).toBe(200);
  return {
    url: String(result.body.url),
    fields: result.body.fields as Record<string, string>,
    jobId: (result.body.job as { id: string }).id,
  };
}

function post(url: string, fields: Record<string, string>, content: string, fileName = 'large.csv') {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([content], { type: 'text/csv' }), fileName);
  return fetch(url, { method: 'POST', body: form });
}

/** A PUT whose path is sent exactly as given. */
function rawPut(path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(s3.endpoint);
    const sent = request({ host: hostname, port, method: 'PUT', path, headers: { 'content-length': 1 } }, (answer) => {
      let body = '';
      answer.on('data', (chunk: Buffer) => (body += chunk.toString()));
      answer.on('end', () => resolve({ status: answer.statusCode ?? 0, body }));
    });
    sent.on('error', reject);
    sent.end('a');
  });
}

async function expectRefused(answer: Response, status: number, code: string, message?: RegExp) {
  const body = await answer.text();
  expect(answer.status, body).toBe(status);
  expect(answer.headers.get('content-type')).toMatch(/xml/);
  expect(body).toContain(`<Code>${code}</Code>`);
  if (message) expect(body).toMatch(message);
}

const jobStatus = async (id: string) =>
  (await call(getImportJob, { body: { id }, headers: auth(admin) })).body.status as string;

describe('the local S3 server checks every upload as S3 does', () => {
  it('takes the presigned POST of /api/createProductUpload; its event runs the import', async () => {
    const { url, fields, jobId } = await presigned();
    expect(url.startsWith(s3.endpoint)).toBe(true);
    const answer = await post(url, fields, csv(spuNo()));
    expect(answer.status).toBe(204);
    await forwarder.idle();
    expect(imports).toBe(before.imports + 1);
    expect(await jobStatus(jobId)).toBe('completed');
  });

  it('refuses a tampered policy (SignatureDoesNotMatch)', async () => {
    const { url, fields, jobId } = await presigned();
    const policy = JSON.parse(Buffer.from(fields.Policy!, 'base64').toString()) as { conditions: unknown[] };
    policy.conditions = policy.conditions.map((condition) =>
      Array.isArray(condition) && condition[0] === 'content-length-range' ? [condition[0], 1, 10 ** 12] : condition,
    );
    const tampered = { ...fields, Policy: Buffer.from(JSON.stringify(policy)).toString('base64') };
    await expectRefused(await post(url, tampered, csv(spuNo())), 403, 'SignatureDoesNotMatch');
    await expectRefused(
      await post(url, { ...fields, 'X-Amz-Signature': '0'.repeat(64) }, csv(spuNo())),
      403,
      'SignatureDoesNotMatch',
    );
    await expectNothingStored();
    expect(await jobStatus(jobId)).toBe('queued');
  });

  it('refuses an expired policy', async () => {
    const { url, fields } = await createPresignedPost(client, {
      Bucket: LOCAL_IMPORTS_BUCKET,
      Key: 'imports/0123456789abcdef0123456789abcdef/expired.csv',
      Conditions: [['content-length-range', 1, 1000]],
      Expires: -60,
    });
    await expectRefused(await post(url, fields, csv(spuNo())), 403, 'AccessDenied', /Policy expired/);
    await expectNothingStored();
  });

  it('refuses a key the policy does not allow, and a form field it does not name', async () => {
    const { url, fields } = await presigned();
    const otherKey = fields.key!.replace(/^imports\/[0-9a-f]{32}\//, 'imports/ffffffffffffffffffffffffffffffff/');
    await expectRefused(
      await post(url, { ...fields, key: otherKey }, csv(spuNo())),
      403,
      'AccessDenied',
      /Policy Condition failed/,
    );
    const prefixed = await createPresignedPost(client, {
      Bucket: LOCAL_IMPORTS_BUCKET,
      Key: 'imports/0123456789abcdef0123456789abcdef/${filename}',
      Expires: 60,
    });
    await expectRefused(
      await post(prefixed.url, { ...prefixed.fields, key: 'elsewhere/${filename}' }, csv(spuNo())),
      403,
      'AccessDenied',
      /starts-with/,
    );
    await expectRefused(
      await post(url, { ...fields, 'Content-Type': 'text/html' }, csv(spuNo())),
      403,
      'AccessDenied',
      /Extra input fields: content-type/,
    );
    await expectNothingStored();
  });

  it('refuses a file over the policy content-length-range (EntityTooLarge) and an empty one (EntityTooSmall)', async () => {
    const { url, fields } = await createPresignedPost(client, {
      Bucket: LOCAL_IMPORTS_BUCKET,
      Key: 'imports/0123456789abcdef0123456789abcdef/big.csv',
      Conditions: [['content-length-range', 1, 100]],
      Expires: 60,
    });
    await expectRefused(await post(url, fields, 'x'.repeat(101)), 400, 'EntityTooLarge');
    await expectRefused(await post(url, fields, ''), 400, 'EntityTooSmall');
    await expectNothingStored();
  });

  it('refuses anonymous writes and reads, and a wrong secret', async () => {
    const objectUrl = `${s3.endpoint}/${LOCAL_IMPORTS_BUCKET}/imports/0123456789abcdef0123456789abcdef/anon.csv`;
    await expectRefused(await fetch(objectUrl, { method: 'PUT', body: csv(spuNo()) }), 403, 'AccessDenied');
    await expectRefused(await fetch(objectUrl), 403, 'AccessDenied');
    const anonymousForm = { key: 'imports/0123456789abcdef0123456789abcdef/anon.csv' };
    await expectRefused(
      await post(`${s3.endpoint}/${LOCAL_IMPORTS_BUCKET}`, anonymousForm, csv(spuNo())),
      403,
      'AccessDenied',
    );
    const wrong = new S3Client({
      region: localAws.region,
      credentials: { accessKeyId: s3.credentials.accessKeyId, secretAccessKey: 'not-the-secret' },
      endpoint: s3.endpoint,
      forcePathStyle: true,
    });
    await expect(
      wrong.send(new PutObjectCommand({ Bucket: LOCAL_IMPORTS_BUCKET, Key: 'imports/x/wrong.csv', Body: 'a' })),
    ).rejects.toMatchObject({ name: 'SignatureDoesNotMatch' });
    await expectNothingStored();
  });

  it("refuses s3rver's well-known S3RVER/S3RVER key: no list, read, upload or presigned POST, and no import", async () => {
    expect(s3.credentials.accessKeyId).not.toBe('S3RVER');
    const fixed = new S3Client({
      region: localAws.region,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      endpoint: s3.endpoint,
      forcePathStyle: true,
    });
    const key = 'imports/0123456789abcdef0123456789abcdef/fixed-key.csv';
    const attempts = {
      list: () => fixed.send(new ListObjectsV2Command({ Bucket: LOCAL_IMPORTS_BUCKET })),
      read: () => fixed.send(new GetObjectCommand({ Bucket: LOCAL_IMPORTS_BUCKET, Key: key })),
      upload: () => fixed.send(new PutObjectCommand({ Bucket: LOCAL_IMPORTS_BUCKET, Key: key, Body: csv(spuNo()) })),
    };
    for (const [what, attempt] of Object.entries(attempts)) {
      await expect(attempt(), what).rejects.toMatchObject({ name: 'InvalidAccessKeyId' });
    }
    const form = await createPresignedPost(fixed, { Bucket: LOCAL_IMPORTS_BUCKET, Key: key, Expires: 60 });
    await expectRefused(await post(form.url, form.fields, csv(spuNo())), 403, 'InvalidAccessKeyId');
    await expectNothingStored();
  });

  it('refuses keys that would leave the data folder, however they are sent', async () => {
    for (const key of ['../escape.csv', '../../escape.csv', 'imports/../../../escape.csv', '/escape.csv']) {
      await expect(
        client.send(new PutObjectCommand({ Bucket: LOCAL_IMPORTS_BUCKET, Key: key, Body: 'a,b\n' })),
        key,
      ).rejects.toMatchObject({ name: 'InvalidArgument' });
    }
    const raw = await fetch(`${s3.endpoint}/${LOCAL_IMPORTS_BUCKET}/..%2F..%2Fescape.csv`, {
      method: 'PUT',
      body: 'a',
    });
    await expectRefused(raw, 400, 'InvalidArgument');
    // fetch would resolve the dots away; these paths go out as written.
    for (const path of [
      '/../escape.csv',
      `/${LOCAL_IMPORTS_BUCKET}/../../escape.csv`,
      `/${LOCAL_IMPORTS_BUCKET}/a\\..\\b`,
    ]) {
      const answer = await rawPut(path);
      expect(answer.status, path).toBe(400);
      expect(answer.body, path).toMatch(/<Code>(InvalidArgument|InvalidBucketName)<\/Code>/);
    }
    const signed = await createPresignedPost(client, {
      Bucket: LOCAL_IMPORTS_BUCKET,
      Key: 'imports/../../escape.csv',
      Expires: 60,
    });
    await expectRefused(await post(signed.url, signed.fields, csv(spuNo())), 400, 'InvalidArgument', /data folder/);
    const backslash = await createPresignedPost(client, {
      Bucket: LOCAL_IMPORTS_BUCKET,
      Key: 'imports\\..\\..\\escape.csv',
      Expires: 60,
    });
    await expectRefused(await post(backslash.url, backslash.fields, csv(spuNo())), 400, 'InvalidArgument');
    await expectNothingStored();
  });

  it('s3rver itself answers only the gate', async () => {
    const answer = await fetch(`${s3.internalEndpoint}/${LOCAL_IMPORTS_BUCKET}/imports/x/direct.csv`, {
      method: 'PUT',
      body: 'a',
    });
    await expectRefused(answer, 403, 'AccessDenied');
    await expectNothingStored();
  });
});

describe('a presigned POST is authorized as the function that signed it, at upload time (as S3 does)', () => {
  it('with the signing route’s imports-bucket grant removed, the upload is AccessDenied in AWS’s words and stores nothing', async () => {
    // The route table with createProductUpload's bucket grant taken away, synthesized as the run's own.
    const narrowed = await synthesizeLocalAssembly(localContexts({ adminMailTo: demoAccounts.admin.email, env: {} }), {
      routes: routes.map((route) => {
        if (route.name !== 'createProductUpload') return route;
        const { importsBucket: _removed, ...access } = route.access;
        return { ...route, access };
      }),
    });
    // The synth held this process for a while: the gate's idle connections close before the next request.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const { url, fields } = await presigned();
    // The function's credentials name it (function-env.ts localSessionToken), and its policy covers that.
    expect(fields['X-Amz-Security-Token']).toBe('portal-local-function:createProductUpload');
    uploadAssembly = narrowed;
    try {
      const answer = await post(url, fields, csv(spuNo()));
      await expectRefused(
        answer,
        403,
        'AccessDenied',
        /assumed-role\/[^/]+\/createProductUpload is not authorized to perform: s3:PutObject on resource: arn:aws:s3:::reseller-portal-imports\/imports\//,
      );
      await expectNothingStored();
    } finally {
      uploadAssembly = undefined;
    }
  }, 300_000);
});
