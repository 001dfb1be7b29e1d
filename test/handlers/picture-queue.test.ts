import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteMessageCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, inject, vi } from 'vitest';
import { CSV_COLUMNS, productIdFromSpuNo, type CsvColumn } from '../../shared/src/domain/csv-product';
import { dynamoProducts } from '../../functions/src/adapters/products/dynamo-products';
import { handler as approveProduct } from '../../functions/src/handlers/approve-product';
import { handler as getImportJob } from '../../functions/src/handlers/get-import-job';
import { handler as getImportIssues } from '../../functions/src/handlers/get-import-issues';
import { handler as getImportedProduct } from '../../functions/src/handlers/get-imported-product';
import { handler as getApprovedProduct } from '../../functions/src/handlers/get-approved-product';
import { handler as hostPictures } from '../../functions/src/handlers/sqs/host-pictures';
import { handler as retryImportPictures } from '../../functions/src/handlers/retry-import-pictures';
import { PICTURE_MAX_RECEIVES } from '../../functions/src/routes';
import { localAws } from '../../infra/local/dynamo';
import { startImageServer } from '../../infra/local/image-server';
import { LOCAL_IMAGES_BUCKET } from '../../infra/local/s3';
import { createPictureQueues, pollQueue, type LocalPictureQueue, type QueuePoller } from '../../infra/local/sqs-events';
import { auth, importCsv, tokenFor } from './catalogue-helpers';
import { asFunction, call } from './helpers';

/**
 * Pictures through the queue (issue 38), on the real engines: the import stores the products and
 * sends one message per product version; the picture function, fed by the local event source
 * mapping from the local SQS (decision 0380), hosts the pictures onto the product.
 */
vi.setConfig({ testTimeout: 120_000 });

const dir = mkdtempSync(join(tmpdir(), 'portal-picture-queue-'));
const picture = (background: string) =>
  sharp({ create: { width: 200, height: 100, channels: 3, background } })
    .png()
    .toBuffer();
for (const [name, colour] of [
  ['red', '#cc0000'],
  ['green', '#00cc00'],
  ['blue', '#0000cc'],
  ['grey', '#777777'],
  ['teal', '#008080'],
  ['pink', '#ff88aa'],
] as const) {
  writeFileSync(join(dir, `${name}.png`), await picture(colour));
}
const images = await startImageServer({ dir });
const fetched: string[] = [];
images.server.on('request', (request: { url?: string }) => fetched.push(request.url ?? ''));

/** A host that holds every answer until the test lets it go (a slow supplier host). */
const held: ServerResponse[] = [];
let slowOpen = 0;
let slowMostOpen = 0;
const slowPicture = await picture('#333333');
const slow = createServer((_request, response) => {
  slowOpen += 1;
  slowMostOpen = Math.max(slowMostOpen, slowOpen);
  response.on('close', () => (slowOpen -= 1));
  held.push(response);
});
await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
const slowOrigin = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
const release = () => {
  for (const response of held.splice(0)) {
    response.writeHead(200, { 'content-type': 'image/png', 'content-length': String(slowPicture.length) });
    response.end(slowPicture);
  }
};

const sqs = new SQSClient({ ...localAws, endpoint: inject('sqsEndpoint') });
let queue: LocalPictureQueue;
let poller: QueuePoller | undefined;

beforeAll(async () => {
  queue = await createPictureQueues(sqs, {
    prefix: `test-${Date.now().toString(36)}`,
    // Longer than any batch takes here, as the stack's (6 × the function's timeout) is in AWS.
    visibilitySeconds: 60,
    maxReceiveCount: PICTURE_MAX_RECEIVES,
  });
  Object.assign(process.env, {
    IMAGES_BUCKET: LOCAL_IMAGES_BUCKET,
    PICTURE_QUEUE_URL: queue.url,
    PICTURE_FETCH_ALLOWED_ORIGINS: `${images.origin},${slowOrigin}`,
    PICTURE_RETRY_DELAY_SECONDS: '0',
  });
});

afterAll(async () => {
  await poller?.stop();
  release();
  await images.stop();
  await new Promise((resolve) => slow.close(resolve));
  sqs.destroy();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * The picture function behind the local event source mapping, as its stack entry runs it; one
 * instance unless asked (each instance has its own per-host limit, as each Lambda container does).
 */
function startPictureFunction(on: LocalPictureQueue = queue, concurrency = 1): QueuePoller {
  poller = pollQueue({
    client: sqs,
    queueUrl: on.url,
    queueArn: on.arn,
    handler: (event) => asFunction('hostPictures', () => hostPictures(event)),
    batchSize: 1,
    concurrency,
  });
  return poller;
}

async function stopPictureFunction(): Promise<void> {
  await poller?.stop();
  poller = undefined;
}
afterEach(stopPictureFunction);

const quote = (value: string) => `"${value.replace(/"/g, '""')}"`;
function csv(rows: Partial<Record<CsvColumn, string>>[]): string {
  const defaults: Record<string, string> = { product_name: 'Lamp', msrp_us: '30.00', dropshipping_price_us: '20.00' };
  return [
    CSV_COLUMNS.join(','),
    ...rows.map((row) => CSV_COLUMNS.map((column) => quote(row[column] ?? defaults[column] ?? '')).join(',')),
  ].join('\n');
}

const job = async (admin: string, id: string) =>
  (await call(getImportJob, { body: { id }, headers: auth(admin) })).body as {
    status: string;
    pictures?: { total: number; hosted: number; failed: number };
  };

const imported = async (admin: string, spu: string) =>
  (await call(getImportedProduct, { body: { id: productIdFromSpuNo(spu) }, headers: auth(admin) })).body as {
    image: string | null;
    images: string[];
    html_description: string;
    version: string;
  };

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  for (let tries = 0; tries < 600; tries++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what} never happened`);
}

describe('pictures through the queue', () => {
  it('the import finishes without them; they appear on the product later, also once approved, without a re-import', async () => {
    const admin = await tokenFor(true);
    const red = `${images.origin}/red.png`;
    const green = `${images.origin}/green.png`;
    const { jobId } = await importCsv(
      admin,
      'queued.csv',
      csv([
        {
          spu_no: 'Q-1',
          product_images_1: red,
          product_images_2: green,
          html_description: `<p>See <img src="${green}" alt="side"></p>`,
        },
        { spu_no: 'Q-2', product_images_1: green },
        { spu_no: 'Q-3' },
      ]),
    );
    // No picture function yet: the import is done, nothing was fetched.
    expect(await job(admin, jobId)).toMatchObject({
      status: 'completed',
      pictures: { total: 3, hosted: 0, failed: 0 },
    });
    expect(fetched).toEqual([]);
    const before = await imported(admin, 'Q-1');
    // The placeholder, and no supplier address anywhere the browser would load it.
    expect(before.image).toBeNull();
    expect(before.images).toEqual([]);
    expect(before.html_description).toBe('<p>See </p>');
    // Approving does not wait for pictures.
    const approved = await call(approveProduct, {
      body: { id: productIdFromSpuNo('Q-1'), version: before.version },
      headers: auth(admin),
    });
    expect(approved.status).toBe(200);

    const poller = startPictureFunction();
    await poller.idle();
    expect(await job(admin, jobId)).toMatchObject({ pictures: { total: 3, hosted: 3, failed: 0 } });
    const after = await imported(admin, 'Q-1');
    expect(after.images).toHaveLength(2);
    expect(after.image).toMatch(/^\/images\/[0-9a-f]{64}\/200\.webp$/);
    expect(after.html_description).toMatch(/^<p>See <img src="\/images\/[0-9a-f]{64}\/200\.webp" alt="side" \/><\/p>$/);
    // Members see the approved version: it got the pictures too.
    const member = await tokenFor(false);
    const shown = await call(getApprovedProduct, { body: { id: productIdFromSpuNo('Q-1') }, headers: auth(member) });
    expect(shown.body.images).toEqual(after.images);
    // Each address fetched once, though green is in two products and a description.
    expect(fetched.sort()).toEqual(['/green.png', '/red.png']);
  });

  it('a redelivered message does nothing twice: nothing fetched, nothing counted', async () => {
    const admin = await tokenFor(true);
    const blue = `${images.origin}/blue.png`;
    const { jobId } = await importCsv(admin, 'again.csv', csv([{ spu_no: 'R-1', product_images_1: blue }]));
    // Take the message as the queue holds it, to send the same body again after it is handled.
    const [message] =
      (
        await sqs.send(
          new ReceiveMessageCommand({ QueueUrl: queue.url, MaxNumberOfMessages: 10, VisibilityTimeout: 0 }),
        )
      ).Messages ?? [];
    // One message holds up to 10 of a batch's product versions (here its one).
    expect(JSON.parse(message!.Body!)).toEqual([
      expect.objectContaining({ jobId, productId: productIdFromSpuNo('R-1'), pictures: 1 }),
    ]);
    const poller = startPictureFunction();
    await poller.idle();
    expect(await job(admin, jobId)).toMatchObject({ pictures: { total: 1, hosted: 1, failed: 0 } });
    const fetchedBefore = fetched.length;
    // What SQS may do: deliver a message a second time (at-least-once).
    await sqs.send(new SendMessageCommand({ QueueUrl: queue.url, MessageBody: message!.Body! }));
    await sqs.send(new SendMessageCommand({ QueueUrl: queue.url, MessageBody: message!.Body! }));
    await poller.idle();
    expect(fetched.length).toBe(fetchedBefore);
    expect(await job(admin, jobId)).toMatchObject({ pictures: { total: 1, hosted: 1, failed: 0 } });
  });

  it('a poison message reaches the dead-letter queue after maxReceiveCount receives, and the others pass', async () => {
    const admin = await tokenFor(true);
    // A queue of its own with a 1 s visibility timeout, so its five receives take seconds, not minutes.
    const quick = await createPictureQueues(sqs, {
      prefix: `poison-${Date.now().toString(36)}`,
      visibilitySeconds: 1,
      maxReceiveCount: PICTURE_MAX_RECEIVES,
    });
    const { jobId } = await importCsv(
      admin,
      'beside-poison.csv',
      csv([{ spu_no: 'P-1', product_images_1: `${images.origin}/teal.png` }]),
    );
    // The import's message, moved to this queue beside the poison one.
    const [good] =
      (await sqs.send(new ReceiveMessageCommand({ QueueUrl: queue.url, MaxNumberOfMessages: 10 }))).Messages ?? [];
    await sqs.send(new SendMessageCommand({ QueueUrl: quick.url, MessageBody: '{"not":"picture work"}' }));
    await sqs.send(new SendMessageCommand({ QueueUrl: quick.url, MessageBody: good!.Body! }));
    await sqs.send(new DeleteMessageCommand({ QueueUrl: queue.url, ReceiptHandle: good!.ReceiptHandle! }));
    let receives = 0;
    poller = pollQueue({
      client: sqs,
      queueUrl: quick.url,
      queueArn: quick.arn,
      handler: (event) => {
        receives += event.Records.filter((record) => record.body.startsWith('{"not"')).length;
        return asFunction('hostPictures', () => hostPictures(event));
      },
    });
    const dead = await until(
      async () => (await sqs.send(new ReceiveMessageCommand({ QueueUrl: quick.deadLetterUrl }))).Messages ?? [],
      (messages) => messages.length > 0,
      'the dead-letter move',
    );
    expect(dead[0]?.Body).toBe('{"not":"picture work"}');
    expect(receives).toBe(PICTURE_MAX_RECEIVES);
    await poller.idle();
    expect(await job(admin, jobId)).toMatchObject({ pictures: { total: 1, hosted: 1, failed: 0 } });
  });

  it('a slow host does not hold the others: their pictures are hosted while its answers are still open', async () => {
    const admin = await tokenFor(true);
    const slowRows = Array.from({ length: 4 }, (_, index) => ({
      spu_no: `S-${index}`,
      product_images_1: `${slowOrigin}/slow-${index}.png`,
    }));
    const fastRows = ['grey', 'teal', 'pink'].map((name, index) => ({
      spu_no: `F-${index}`,
      product_images_1: `${images.origin}/${name}.png`,
    }));
    // The slow host's products come first in the file and in the batch.
    const { jobId } = await importCsv(admin, 'slow.csv', csv([...slowRows, ...fastRows]));
    startPictureFunction();
    const fast = await until(
      () => Promise.all(fastRows.map((row) => imported(admin, row.spu_no))),
      (products) => products.every((product) => product.image !== null),
      'the fast hosts’ pictures',
    );
    expect(fast.every((product) => product.images.length === 1)).toBe(true);
    // Meanwhile the slow host has had its answers open, two at a time at most (the per-host limit).
    expect(held.length).toBeGreaterThan(0);
    expect(slowMostOpen).toBeLessThanOrEqual(2);
    expect((await imported(admin, 'S-0')).image).toBeNull();
    // Let it answer: its products get their pictures too.
    const releasing = setInterval(release, 20);
    await poller!.idle();
    clearInterval(releasing);
    expect(await job(admin, jobId)).toMatchObject({ pictures: { total: 7, hosted: 7, failed: 0 } });
  });

  it('a picture that cannot be hosted is counted failed, with its words in the import report', async () => {
    const admin = await tokenFor(true);
    const missing = `${images.origin}/missing.png`;
    const { jobId } = await importCsv(
      admin,
      'failing.csv',
      csv([{ spu_no: 'X-1', product_images_1: `${images.origin}/red.png`, product_images_2: missing }]),
    );
    const poller = startPictureFunction();
    await poller.idle();
    expect(await job(admin, jobId)).toMatchObject({ pictures: { total: 2, hosted: 1, failed: 1 } });
    const issues = await call(getImportIssues, { body: { id: jobId }, headers: auth(admin) });
    expect(issues.body.items).toEqual([
      {
        row: 2,
        column: 'product_images_2',
        message: `The picture ${missing} was left out of the product: its server answered 404.`,
        severity: 'warning',
      },
    ]);
    const record = await dynamoProducts.get(productIdFromSpuNo('X-1'));
    expect(Object.keys(record?.current.hosted_images ?? {})).toEqual([`${images.origin}/red.png`]);

    // The host answers now: one action sends the failed product back, and its picture is hosted.
    writeFileSync(join(dir, 'missing.png'), await picture('#abcdef'));
    const retried = await call(retryImportPictures, { body: { id: jobId }, headers: auth(admin) });
    expect(retried.body).toEqual({ products: 1, message: 'The failed pictures of one product are being tried again.' });
    // A second click finds nothing left to send.
    const again = await call(retryImportPictures, { body: { id: jobId }, headers: auth(admin) });
    expect(again.body).toEqual({ products: 0, message: 'No picture of this import is waiting for another try.' });
    await poller.idle();
    expect(await job(admin, jobId)).toMatchObject({ pictures: { total: 2, hosted: 2, failed: 0 } });
    expect((await imported(admin, 'X-1')).images).toHaveLength(2);
    const after = await call(getImportIssues, { body: { id: jobId }, headers: auth(admin) });
    expect(after.body.items).toEqual([]);
    const member = await tokenFor(false);
    const refused = await call(retryImportPictures, { body: { id: jobId }, headers: auth(member) });
    expect(refused.status).toBe(403);
  });
});
