import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { AutocompleteCommand, GeoPlacesClient } from '@aws-sdk/client-geo-places';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import {
  ChangeMessageVisibilityCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { afterEach, beforeAll, describe, expect, it, inject, vi } from 'vitest';
import { assemblyFromTemplates, synthesizeLocalAssembly, type LocalAssembly } from '../../infra/local/iam/assembly';
import { enforceIam, runAsFunction } from '../../infra/local/iam/enforce';
import { localSecretArn } from '../../infra/local/iam/policy';
import { LOCAL_IMAGES_BUCKET, LOCAL_IMPORTS_BUCKET } from '../../infra/local/s3';
import { createTemplateQueues } from '../../infra/local/sqs-events';
import { localContexts, templateQueues } from '../../infra/local/template';
import { demoAccounts } from '../../infra/local/start';

/**
 * IAM, enforced locally (infra/local/iam): each function's AWS calls are held to its role in the
 * synthesized stack, and a denied one fails as AWS answers it. The logger's level is read when its
 * module loads, so this file sets it before the handlers are imported.
 */
process.env.POWERTOOLS_LOG_LEVEL = 'WARN';
const { routes } = await import('../../functions/src/routes');
const { db, tableName } = await import('../../functions/src/adapters/dynamo-client');
const { handler: saveMailPreferences } = await import('../../functions/src/handlers/save-mail-preferences');
const { handler: login } = await import('../../functions/src/handlers/login');
const { uploadCsv, tokenFor } = await import('./catalogue-helpers');
const { auth, call, uniqueEmail } = await import('./helpers');
const { ensureAccount } = await import('../../infra/local/accounts');
const { getSecret, SETTINGS_UNAVAILABLE } = await import('../../functions/src/config/secrets');
const { createLocalOutbox } = await import('../../functions/src/adapters/email/local-outbox-mailer');
const { localAddressSearch } = await import('../../functions/src/adapters/addresses/local-address-search');

/** The stack every other handler test runs against (test/handlers/global-setup.ts's one synth). */
const stack = assemblyFromTemplates(inject('templates'));
/**
 * The route table with two grants taken away, synthesized as `npm run synth` would: the CSV
 * upload loses the imports bucket, saving the mail preferences its table write (read only).
 */
let narrowed: LocalAssembly;
beforeAll(async () => {
  // The contexts of the run's own synth (global-setup.ts).
  narrowed = await synthesizeLocalAssembly(localContexts({ adminMailTo: demoAccounts.admin.email, env: {} }), {
    routes: routes.map((route) => {
      if (route.name === 'products') {
        const { importsBucket: _removed, ...access } = route.access;
        return { ...route, access };
      }
      if (route.name === 'saveMailPreferences') return { ...route, access: { ...route.access, table: 'read' } };
      return route;
    }),
  });
}, 240_000);

afterEach(() => {
  enforceIam(stack);
  vi.restoreAllMocks();
});

/** Runs `run` with everything the handlers log captured, and gives back the JSON log lines. */
async function logging<T>(run: () => Promise<T>): Promise<{ result: T; errors: { name: string; message: string }[] }> {
  const lines: string[] = [];
  const capture = (chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  };
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  try {
    const result = await run();
    const entries = lines
      .flatMap((line) => line.split('\n'))
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { message?: string; error?: { name: string; message: string } });
    const errors = entries.filter((entry) => entry.message === 'unexpected error').map((entry) => entry.error!);
    return { result, errors };
  } finally {
    vi.restoreAllMocks();
  }
}

/** An AWS SDK error's fields. */
type SdkError = Error & { $fault?: string; $metadata: { httpStatusCode?: number } };

/** The rejection of a promise, for its fields. */
async function rejection(promise: Promise<unknown>): Promise<SdkError> {
  try {
    await promise;
  } catch (error) {
    return error as SdkError;
  }
  throw new Error('the call was allowed');
}

const tableArn = () => `arn:aws:dynamodb:us-east-1:123456789012:table/${tableName()}`;
/** Clients of the services no local engine stands for: a denied call never leaves the process. */
const unreachable = { region: 'us-east-1', endpoint: 'http://127.0.0.1:9', maxAttempts: 1 };

describe('an SDK call outside the function’s role', () => {
  it('DynamoDB: a write where the role reads only is AccessDeniedException (400) in AWS’s words, and writes nothing', async () => {
    const key = { pk: `IAM#${Date.now()}`, sk: 'TEST' };
    const error = await rejection(
      runAsFunction('getOrders', () => db().send(new PutCommand({ TableName: tableName(), Item: key }))),
    );
    expect(error.name).toBe('AccessDeniedException');
    expect(error.$fault).toBe('client');
    expect(error.$metadata.httpStatusCode).toBe(400);
    expect(error.message).toBe(
      `User: arn:aws:sts::123456789012:assumed-role/${stack.functions.getOrders!.roleId}/getOrders is not authorized to perform: dynamodb:PutItem on resource: ${tableArn()} because no identity-based policy allows the dynamodb:PutItem action`,
    );
    // Nothing reached the table; the test's own read (no function) is not held to a role.
    expect((await db().send(new GetCommand({ TableName: tableName(), Key: key }))).Item).toBeUndefined();
    // The same function's reads pass, an index's too (the grant names index/*).
    const read = await runAsFunction('getOrders', () =>
      db().send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk',
          ExpressionAttributeValues: { ':pk': 'NONE' },
        }),
      ),
    );
    expect(read.Items).toEqual([]);
  });

  it('S3: an object or a listing of a bucket the role does not name is AccessDenied (403)', async () => {
    const s3 = new S3Client({ ...unreachable, forcePathStyle: true });
    const get = await rejection(
      runAsFunction('getOrders', () =>
        s3.send(new GetObjectCommand({ Bucket: LOCAL_IMPORTS_BUCKET, Key: 'imports/x/a.csv' })),
      ),
    );
    expect(get.name).toBe('AccessDenied');
    expect(get.$metadata.httpStatusCode).toBe(403);
    expect(get.message).toContain(`s3:GetObject on resource: arn:aws:s3:::${LOCAL_IMPORTS_BUCKET}/imports/x/a.csv`);
    // The import reads the imports bucket's objects only: listing it is not granted.
    const list = await rejection(
      runAsFunction('importProducts', () =>
        s3.send(new ListObjectsV2Command({ Bucket: LOCAL_IMPORTS_BUCKET, Prefix: 'imports/' })),
      ),
    );
    expect(list.name).toBe('AccessDenied');
    expect(list.message).toContain(`s3:ListBucket on resource: arn:aws:s3:::${LOCAL_IMPORTS_BUCKET}`);
  });

  it('S3: a missing key is 404 to a role that may list the bucket, 403 AccessDenied to one that may only read objects', async () => {
    const s3 = new S3Client({ region: 'us-east-1', endpoint: process.env.S3_ENDPOINT, forcePathStyle: true });
    process.env.IMAGES_BUCKET = LOCAL_IMAGES_BUCKET;
    try {
      // The picture function may list the images bucket (s3:ListBucket on it): S3 tells it the key is missing.
      const image = await rejection(
        runAsFunction('hostPictures', () =>
          s3.send(new GetObjectCommand({ Bucket: LOCAL_IMAGES_BUCKET, Key: 'images/none/original' })),
        ),
      );
      expect([image.name, image.$metadata.httpStatusCode]).toEqual(['NoSuchKey', 404]);
      // It reads the imports bucket's objects only: a missing CSV is AccessDenied, as AWS answers it.
      const csv = await rejection(
        runAsFunction('importProducts', () =>
          s3.send(new GetObjectCommand({ Bucket: LOCAL_IMPORTS_BUCKET, Key: 'imports/none/a.csv' })),
        ),
      );
      expect([csv.name, csv.$metadata.httpStatusCode]).toEqual(['AccessDenied', 403]);
      expect(csv.message).toContain(`s3:ListBucket on resource: arn:aws:s3:::${LOCAL_IMPORTS_BUCKET}`);
    } finally {
      delete process.env.IMAGES_BUCKET;
    }
  });

  it('SES, Secrets Manager and Amazon Location: AccessDeniedException, as each service answers it', async () => {
    const mail = await rejection(
      runAsFunction('getOrders', () =>
        new SESv2Client(unreachable).send(
          new SendEmailCommand({
            FromEmailAddress: 'Reseller Portal <no-reply@example.com>',
            Destination: { ToAddresses: ['someone@example.com'] },
            Content: { Simple: { Subject: { Data: 's' }, Body: { Text: { Data: 't' } } } },
          }),
        ),
      ),
    );
    expect([mail.name, mail.$metadata.httpStatusCode]).toEqual(['AccessDeniedException', 403]);
    expect(mail.message).toContain(
      'ses:SendEmail on resource: arn:aws:ses:us-east-1:123456789012:identity/example.com',
    );

    // getOrderPage is public and reads no secret; the Stripe key's ARN is the one the stack passes its Stripe functions.
    const stripeKeyId = (Object.values(stack.nestedParameters)[0]!.StripeSecretKeyArn as { Ref: string }).Ref;
    const secretArn = localSecretArn(stripeKeyId);
    const secret = await rejection(
      runAsFunction('getOrderPage', () =>
        new SecretsManagerClient(unreachable).send(new GetSecretValueCommand({ SecretId: secretArn })),
      ),
    );
    expect([secret.name, secret.$metadata.httpStatusCode]).toEqual(['AccessDeniedException', 400]);
    expect(secret.message).toContain(`secretsmanager:GetSecretValue on resource: ${secretArn}`);

    const places = await rejection(
      runAsFunction('getOrders', () =>
        new GeoPlacesClient(unreachable).send(new AutocompleteCommand({ QueryText: '1 Main St' })),
      ),
    );
    expect([places.name, places.$metadata.httpStatusCode]).toEqual(['AccessDeniedException', 403]);
    expect(places.message).toContain(
      'geo-places:Autocomplete on resource: arn:aws:geo-places:us-east-1::provider/default',
    );
  });
});

describe('SQS: the picture queue (issue 38)', () => {
  it('the import and the retry may send to it, the picture function may only consume it, others not at all', async () => {
    const sqs = new SQSClient({ region: 'us-east-1', endpoint: process.env.SQS_ENDPOINT, maxAttempts: 1 });
    // The stack's queues on the local SQS, as npm start makes them; the functions read the queue's URL.
    const queues = await createTemplateQueues(sqs, templateQueues(inject('templates')), `iam-${tableName()}`);
    const queue = queues.PictureQueue!;
    const deadLetters = queues.PictureDeadLetters!;
    process.env.PICTURE_QUEUE_URL = queue.url;
    const arn = `arn:aws:sqs:us-east-1:123456789012:${queue.url.split('/').at(-1)}`;
    const batch = (url: string) =>
      new SendMessageBatchCommand({ QueueUrl: url, Entries: [{ Id: '1', MessageBody: '{}' }] });

    // Granted: the import's batch and the admin's retry (SendMessageBatch is authorized as sqs:SendMessage).
    const sent = await runAsFunction('importProducts', () => sqs.send(batch(queue.url)));
    expect(sent.Successful).toHaveLength(1);
    await runAsFunction('retryImportPictures', () => sqs.send(batch(queue.url)));
    // The picture function consumes (its event source mapping's grant): it may delay a message, not send one.
    const [message] =
      (await sqs.send(new ReceiveMessageCommand({ QueueUrl: queue.url, MaxNumberOfMessages: 1 }))).Messages ?? [];
    await runAsFunction('hostPictures', () =>
      sqs.send(
        new ChangeMessageVisibilityCommand({
          QueueUrl: queue.url,
          ReceiptHandle: message!.ReceiptHandle!,
          VisibilityTimeout: 1,
        }),
      ),
    );
    const own = await rejection(
      runAsFunction('hostPictures', () => sqs.send(new SendMessageCommand({ QueueUrl: queue.url, MessageBody: '{}' }))),
    );
    expect([own.name, own.$metadata.httpStatusCode]).toEqual(['AccessDenied', 403]);
    expect(own.message).toContain(`sqs:SendMessage on resource: ${arn}`);
    // A function without the queue, and the import on another queue (the dead-letter queue), are refused.
    const other = await rejection(runAsFunction('getImportJob', () => sqs.send(batch(queue.url))));
    expect(other.message).toContain(`getImportJob is not authorized to perform: sqs:SendMessage on resource: ${arn}`);
    const dead = await rejection(runAsFunction('importProducts', () => sqs.send(batch(deadLetters.url))));
    expect(dead.message).toContain(
      `sqs:SendMessage on resource: arn:aws:sqs:us-east-1:123456789012:${deadLetters.url.split('/').at(-1)}`,
    );
    delete process.env.PICTURE_QUEUE_URL;
  });
});

describe('the local stand-ins of SES, Amazon Location and Secrets Manager ask the same check', () => {
  it('the outbox sends for a function that may mail, and refuses one that may not, as SES would', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-iam-outbox-'));
    try {
      const outbox = createLocalOutbox(dir, () => undefined);
      const mail = { to: 'someone@example.com', subject: 'Hello', text: 'Hello', html: '<p>Hello</p>' };
      await runAsFunction('signup', () => outbox.send(mail));
      const refused = await rejection(runAsFunction('getOrders', () => outbox.send(mail)));
      expect(refused.name).toBe('AccessDeniedException');
      expect(refused.message).toContain(
        'ses:SendEmail on resource: arn:aws:ses:us-east-1:123456789012:identity/example.com',
      );
      expect(readdirSync(dir)).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the embedded address search answers searchAddress only', async () => {
    const found = await runAsFunction('searchAddress', () =>
      localAddressSearch.suggest('1 Main St, Springfield, IL', 3),
    );
    expect(found.length).toBeGreaterThan(0);
    const refused = await rejection(
      runAsFunction('getOrders', () => localAddressSearch.suggest('1 Main St, Springfield, IL', 3)),
    );
    expect(refused.name).toBe('AccessDeniedException');
    expect(refused.message).toContain('geo-places:Autocomplete');
  });

  it('a secret from the environment reaches only a function granted it; another gets the 503 Secrets Manager’s denial gives', async () => {
    expect(await runAsFunction('getOrders', () => getSecret('tokenSigningKey'))).toBe(process.env.TOKEN_SIGNING_KEY);
    const refused = await rejection(runAsFunction('getOrderPage', () => getSecret('stripeSecretKey')));
    expect(refused.message).toBe(SETTINGS_UNAVAILABLE);
    expect((refused as SdkError & { kind?: string }).kind).toBe('unavailable');
  });
});

describe('a grant removed from the route table', () => {
  it('the CSV upload without the imports bucket: its S3 put is AccessDenied, the caller gets the 500 with a reference', async () => {
    const admin = await tokenFor(true);
    const content = 'sku,name\n';
    const granted = await uploadCsv(admin, 'granted.csv', content);
    expect(granted.status).toBeLessThan(300);

    enforceIam(narrowed);
    const { result, errors } = await logging(() => uploadCsv(admin, 'denied.csv', content));
    expect(result.status).toBe(500);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.name).toBe('AccessDenied');
    expect(errors[0]!.message).toMatch(
      new RegExp(
        `assumed-role/${narrowed.functions.products!.roleId}/products is not authorized to perform: s3:PutObject on resource: arn:aws:s3:::${LOCAL_IMPORTS_BUCKET}/imports/`,
      ),
    );
  });

  it('saving the mail preferences with a read-only table grant: the write is AccessDeniedException and nothing changes', async () => {
    const email = uniqueEmail();
    const password = 'a long enough password';
    await ensureAccount(email, password, false);
    const token = String((await call(login, { body: { email, password } })).body.access_token);
    const save = () =>
      call(saveMailPreferences, {
        body: { saleMails: false, payoutMails: false },
        headers: auth(token),
        path: '/api/saveMailPreferences',
      });

    enforceIam(narrowed);
    const { result, errors } = await logging(save);
    expect(result.status).toBe(500);
    expect(errors.map((error) => error.name)).toEqual(['AccessDeniedException']);
    expect(errors[0]!.message).toMatch(
      /is not authorized to perform: dynamodb:(UpdateItem|PutItem) on resource: arn:aws:dynamodb:/,
    );
    const profile = async () =>
      ((await call(login, { body: { email, password } })).body.userProfile as { mailPreferences: unknown })
        .mailPreferences;
    expect(await profile()).toEqual({ saleMails: true, payoutMails: true });

    // With the route table's grant (read-write), the same call saves.
    enforceIam(stack);
    expect((await save()).status).toBe(200);
    expect(await profile()).toEqual({ saleMails: false, payoutMails: false });
  });
});
