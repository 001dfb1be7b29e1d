import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { CSV_COLUMNS, productIdFromSpuNo } from '../../shared/src/domain/csv-product';
import { dynamoImports } from '../../functions/src/adapters/imports/dynamo-imports';
import { dynamoProducts } from '../../functions/src/adapters/products/dynamo-products';
import { s3Files } from '../../functions/src/adapters/imports/s3-files';
import { handler as getImportIssues } from '../../functions/src/handlers/get-import-issues';
import { handler as getImportJob } from '../../functions/src/handlers/get-import-job';
import { handler as getRejected } from '../../functions/src/handlers/get-rejected-rows-csv';
import { handler as importProducts } from '../../functions/src/handlers/s3/import-products';
import type { FileStore } from '../../functions/src/imports/job-store';
import { CATALOGUE_BUSY, FILE_CHANGED, STALE_AFTER_MS, runImport } from '../../functions/src/imports/run-import';
import type { ProductRepository } from '../../functions/src/products/product-store';
import { localAws } from '../../infra/local/dynamo';
import { LOCAL_IMPORTS_BUCKET } from '../../infra/local/s3';
import { auth, importCsv, objectCreatedEvent, s3Events, tokenFor, uploadHeld } from './catalogue-helpers';
import { allItems, asFunction, call } from './helpers';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../functions/src/adapters/dynamo-client';
import { handler as approve } from '../../functions/src/handlers/approve-product';

/**
 * How an import recovers: a dead run's claim taken over, a file replaced between the two passes,
 * two imports creating the same product at once and the catalogue write lease, more issues than
 * are kept, unknown jobs.
 */

let admin = '';
beforeAll(async () => {
  admin = await tokenFor(true);
});

const header = CSV_COLUMNS.join(',');
let counter = 0;
const spu = (label: string) => `IR-${label}-${Date.now().toString(36)}-${counter++}`;
const row = (spuNo: string, name = 'Travel Mug', msrp = '24.99') =>
  `${name},Brandly,${msrp},12.95,https://img.example.test/${spuNo}/1.jpg,,,,,,,<p>Hot.</p>,https://supplier.example.test/${spuNo},${spuNo}`;
const csv = (...rows: string[]) => [header, ...rows].join('\n') + '\n';

const deps = { jobs: dynamoImports, products: dynamoProducts, files: s3Files };
const source = (key: string) => ({ bucket: s3Files.bucket(), key });
const productsOf = async (spus: readonly string[]) => {
  const ids = new Set(spus.map((s) => productIdFromSpuNo(s)));
  return (await allItems()).filter((item) => item.entity === 'Product' && ids.has(String(item.id)));
};

describe('a run that died', () => {
  it('is taken over by a new run once its heartbeat is stale; the dead run can no longer write to the job', async () => {
    const a = spu('stale');
    const { jobId, key } = await uploadHeld(admin, 'stale.csv', csv(row(a)));
    const job = { id: jobId, fileName: 'stale.csv', bucket: s3Files.bucket(), key };
    const start = Date.parse('2026-03-01T10:00:00.000Z');
    const at = (ms: number) => new Date(start + ms);
    // The first run claims the job, then dies (its heartbeat stays at `start`).
    const dead = await dynamoImports.claim(job, at(0).toISOString(), at(-STALE_AFTER_MS).toISOString());
    expect(dead).toBe(1);

    // While the heartbeat is fresh, a second run leaves the job alone.
    expect(await runImport({ ...deps, now: () => at(STALE_AFTER_MS - 1000) }, source(key))).toBe('skipped');
    expect(await dynamoImports.get(jobId)).toMatchObject({ status: 'running', attempt: 1 });
    expect(await productsOf([a])).toEqual([]);

    // Once it is older than the function's time-out, a new run takes the job over and imports the file.
    expect(await runImport({ ...deps, now: () => at(STALE_AFTER_MS + 1000) }, source(key))).toBe('completed');
    const done = await dynamoImports.get(jobId);
    expect(done).toMatchObject({ status: 'completed', attempt: 2, created: 1, rowsRead: 1 });

    // The dead run, should it wake up, is refused: the job stays as the new run left it.
    await expect(dynamoImports.finish(jobId, dead!, { status: 'failed', failure: 'late' })).rejects.toThrow(
      /taken over by a newer run/,
    );
    expect(await dynamoImports.get(jobId)).toEqual(done);
  });
});

describe('a file replaced between the two passes', () => {
  const s3 = new S3Client({
    region: localAws.region,
    credentials: inject('s3Credentials'),
    endpoint: process.env.S3_ENDPOINT,
    forcePathStyle: true,
  });
  const replace = (key: string, body: string) =>
    s3Events.withoutDelivery(() =>
      s3.send(new PutObjectCommand({ Bucket: LOCAL_IMPORTS_BUCKET, Key: key, Body: body, ContentType: 'text/csv' })),
    );

  it('fails the run before any write; the job says so; the new file, imported from its own event, replaces the issues', async () => {
    const [a1, a2, b1] = [spu('etag-a1'), spu('etag-a2'), spu('etag-b1')];
    // The first version: two products and three bad rows.
    const first = csv(row(a1), row(a2), row('bad-1', 'Bad', 'x'), row('bad-2', 'Bad', 'y'), row('bad-3', 'Bad', 'z'));
    const { jobId, key } = await uploadHeld(admin, 'replaced.csv', first);
    const event = await objectCreatedEvent(key);
    const eTag = event.Records[0]!.s3.object.eTag;
    // The second version, one product and one bad row, lands after the first pass has read the first.
    const second = csv(row(b1), row('bad-4', 'Bad', 'w'));
    let reads = 0;
    const replacedBetweenPasses: FileStore = {
      ...s3Files,
      async read(bucket, objectKey, tag) {
        reads += 1;
        if (reads === 2) await replace(objectKey, second);
        return s3Files.read(bucket, objectKey, tag);
      },
    };
    expect(await runImport({ ...deps, files: replacedBetweenPasses }, { ...source(key), eTag })).toBe('failed');
    expect(reads).toBe(2);
    const failed = await dynamoImports.get(jobId);
    expect(failed).toMatchObject({ status: 'failed', failure: FILE_CHANGED, created: 0, updated: 0, rowsDone: 0 });
    expect(failed!.heartbeatAt).toBeNull();
    // Nothing of either version was written.
    expect(await productsOf([a1, a2, b1])).toEqual([]);

    // S3's event for the new version (its own ETag) imports it, and the job's issues are the new file's only.
    const newEvent = await objectCreatedEvent(key);
    expect(newEvent.Records[0]!.s3.object.eTag).not.toBe(eTag);
    await asFunction('importProducts', () => importProducts(newEvent));
    expect(await dynamoImports.get(jobId)).toMatchObject({
      status: 'completed',
      attempt: 2,
      rowsRead: 2,
      created: 1,
      rejected: 1,
      failure: null,
    });
    expect((await productsOf([a1, a2, b1])).map((item) => item.id)).toEqual([productIdFromSpuNo(b1)]);
    const issues = await call(getImportIssues, { body: { id: jobId }, headers: auth(admin) });
    expect(issues.body.items).toEqual([expect.objectContaining({ row: 3, column: 'msrp_us', severity: 'error' })]);
    const download = await call(getRejected, { body: { id: jobId }, headers: auth(admin) });
    const rows = parse(String(download.body.csv)) as string[][];
    expect(rows.slice(1).map((r) => r[CSV_COLUMNS.indexOf('spu_no')])).toEqual(['bad-4']);
  });
});

describe('two imports creating the same new product at the same moment', () => {
  it('take turns with the catalogue write lease: the first creates it, the second waits, then revises it', async () => {
    const a = spu('race');
    const id = productIdFromSpuNo(a);
    const one = await uploadHeld(admin, 'race-1.csv', csv(row(a, 'First Mug')));
    const two = await uploadHeld(admin, 'race-2.csv', csv(row(a, 'Second Mug')));

    // The first run is held just before it creates the product (missing), lease in hand.
    let aboutToCreate!: () => void;
    const firstHasRead = new Promise<void>((resolve) => (aboutToCreate = resolve));
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    let creates = 0;
    const products: ProductRepository = {
      ...dynamoProducts,
      async putNew(records) {
        if (creates++ === 0) {
          aboutToCreate();
          await held;
        }
        return dynamoProducts.putNew(records);
      },
    };
    const racing = { ...deps, products, leasePollMs: 20 };
    const first = runImport(racing, source(one.key));
    await firstHasRead;
    const second = runImport(racing, source(two.key));
    // The second run waits for the lease, and its job says so; it has read nothing yet.
    await expect.poll(async () => (await dynamoImports.get(two.jobId))?.phase).toBe('waiting');
    const seen = await call(getImportJob, { body: { id: two.jobId }, headers: auth(admin) });
    expect(seen.body).toMatchObject({ status: 'running', phase: 'waiting', rowsRead: 0 });
    expect(creates).toBe(1);
    letGo();

    expect(await Promise.all([first, second])).toEqual(['completed', 'completed']);
    expect(await dynamoImports.get(one.jobId)).toMatchObject({ status: 'completed', created: 1, updated: 0 });
    expect(await dynamoImports.get(two.jobId)).toMatchObject({ status: 'completed', created: 0, updated: 1 });
    expect(await productsOf([a])).toHaveLength(1);
    // Created by the first, revised to the second's values; the lease is given back.
    expect(await dynamoProducts.get(id)).toMatchObject({
      status: 'review',
      createdAt: expect.any(String),
      lastJobId: two.jobId,
      current: { product_name: 'Second Mug' },
    });
    expect((await allItems()).filter((item) => item.pk === 'LEASE#CATALOGUE')).toEqual([]);
  });
});

describe('the catalogue write lease', () => {
  const takeFor = (jobId: string, heartbeatAt: Date) =>
    dynamoImports.takeLease(jobId, 1, heartbeatAt.toISOString(), new Date(0).toISOString());

  it('held by a live import past the wait budget: the job fails in words, nothing is written, the retry imports it', async () => {
    const a = spu('busy');
    const { jobId, key } = await uploadHeld(admin, 'busy.csv', csv(row(a)));
    expect(await takeFor('other-live-import', new Date())).toBeNull();

    await expect(runImport({ ...deps, waitBudgetMs: () => 100, leasePollMs: 20 }, source(key))).rejects.toThrow(
      /lease stayed with import other-live-import/,
    );
    expect(await dynamoImports.get(jobId)).toMatchObject({ status: 'failed', failure: CATALOGUE_BUSY, created: 0 });
    expect(await productsOf([a])).toEqual([]);
    // Still the other import's: the run that gave up did not release what it never held.
    expect(await takeFor('someone-else', new Date())).toBe('other-live-import');

    await dynamoImports.releaseLease('other-live-import', 1);
    expect(await runImport({ ...deps, leasePollMs: 20 }, source(key))).toBe('completed');
    expect(await dynamoImports.get(jobId)).toMatchObject({ status: 'completed', created: 1 });
  });

  it('held by a run that died (heartbeat older than the time-out) is taken over at once', async () => {
    const a = spu('dead-holder');
    const { jobId, key } = await uploadHeld(admin, 'dead-holder.csv', csv(row(a)));
    expect(await takeFor('dead-import', new Date(Date.now() - STALE_AFTER_MS - 60_000))).toBeNull();

    expect(await runImport({ ...deps, waitBudgetMs: () => 0 }, source(key))).toBe('completed');
    expect(await dynamoImports.get(jobId)).toMatchObject({ status: 'completed', created: 1 });
    expect((await allItems()).filter((item) => item.pk === 'LEASE#CATALOGUE')).toEqual([]);
  });

  it('taken from a run (taken for dead) stops it before its next batch; it does not release the new holder', async () => {
    const spus = Array.from({ length: 40 }, (_, i) => spu(`lost-${i}`));
    const { jobId, key } = await uploadHeld(admin, 'lost.csv', csv(...spus.map((s) => row(s))));
    let batches = 0;
    const products: ProductRepository = {
      ...dynamoProducts,
      async putNew(records) {
        await dynamoProducts.putNew(records);
        if (++batches === 1) {
          // Another run takes the lease as if this one were dead, and this run's next heartbeat is due.
          await dynamoImports.takeLease(
            'thief',
            1,
            new Date().toISOString(),
            new Date(Date.now() + 60_000).toISOString(),
          );
          await new Promise((resolve) => setTimeout(resolve, 1_100));
        }
      },
    };
    await expect(runImport({ ...deps, products, batchSize: 10, concurrency: 1 }, source(key))).rejects.toThrow(
      /lost the catalogue write lease/,
    );
    expect(batches).toBe(1);
    expect(await productsOf(spus)).toHaveLength(10);
    expect(await dynamoImports.get(jobId)).toMatchObject({ status: 'failed', created: 10 });
    expect(await takeFor('someone-else', new Date())).toBe('thief');
    await dynamoImports.releaseLease('thief', 1);
  });
});

describe('the product id directory', () => {
  const directory = async () => (await allItems()).filter((item) => item.pk === 'PRODUCT_IDS');
  const reading = () => {
    const read: string[] = [];
    const products: ProductRepository = {
      ...dynamoProducts,
      async states(ids) {
        read.push(...ids);
        return dynamoProducts.states(ids);
      },
    };
    return { read, products };
  };

  it('lets an import skip the state read of a product that cannot exist, and holds every id it creates', async () => {
    const [old, fresh] = [spu('dir-old'), spu('dir-new')];
    await importCsv(admin, 'dir-1.csv', csv(row(old)));
    const { jobId, key } = await uploadHeld(admin, 'dir-2.csv', csv(row(old, 'Renamed Mug'), row(fresh)));
    const { read, products } = reading();

    expect(await runImport({ ...deps, products }, source(key))).toBe('completed');
    expect(read).toEqual([productIdFromSpuNo(old)]);
    expect(await dynamoImports.get(jobId)).toMatchObject({ created: 1, updated: 1 });
    const listed = (await directory()).flatMap((item) => (item.sk === 'COMPLETE' ? [] : String(item.ids).split(' ')));
    expect(listed).toEqual(expect.arrayContaining([productIdFromSpuNo(old), productIdFromSpuNo(fresh)]));
  });

  it('is built from the stored products when it is missing, so a product stored before it is revised, not overwritten', async () => {
    const a = spu('dir-before');
    const id = productIdFromSpuNo(a);
    await importCsv(admin, 'dir-before-1.csv', csv(row(a)));
    await call(approve, {
      body: { id, version: (await dynamoProducts.get(id))!.current.content_hash },
      headers: auth(admin),
    });
    // As in a table from before the directory: no marker, no chunks.
    await Promise.all(
      (await directory()).map((item) =>
        db().send(new DeleteCommand({ TableName: tableName(), Key: { pk: item.pk, sk: item.sk } })),
      ),
    );
    const { jobId, key } = await uploadHeld(admin, 'dir-before-2.csv', csv(row(a, 'Renamed Mug')));
    const { read, products } = reading();

    expect(await runImport({ ...deps, products }, source(key))).toBe('completed');
    expect(read).toEqual([id]);
    expect(await dynamoImports.get(jobId)).toMatchObject({ created: 0, updated: 1 });
    // Still approved at its old values for members; the new ones wait for review.
    expect(await dynamoProducts.get(id)).toMatchObject({
      status: 'review',
      approved: { product_name: 'Travel Mug' },
      current: { product_name: 'Renamed Mug' },
    });
    expect((await directory()).some((item) => item.sk === 'COMPLETE')).toBe(true);
  });
});

describe('more than 1,000 rows with errors', () => {
  it('keeps 1,000 issues and 1,000 rows, says the download is truncated, and counts every row', async () => {
    const good = spu('many-good');
    const bad = Array.from({ length: 1005 }, (_, i) => row(`many-bad-${i}`, `Bad ${i}`, 'not-a-price'));
    const { jobId } = await importCsv(admin, 'many.csv', csv(row(good), ...bad));
    const job = (await call(getImportJob, { body: { id: jobId }, headers: auth(admin) })).body;
    expect(job).toMatchObject({ status: 'completed', rowsRead: 1006, created: 1, rejected: 1005 });

    const issues: { row: number; severity: string }[] = [];
    let cursor: string | undefined;
    do {
      const page = await call(getImportIssues, {
        body: { id: jobId, ...(cursor ? { cursor } : {}) },
        headers: auth(admin),
      });
      issues.push(...(page.body.items as typeof issues));
      cursor = (page.body.nextCursor as string | null) ?? undefined;
    } while (cursor);
    expect(issues.filter((issue) => issue.severity === 'error')).toHaveLength(1000);
    expect(issues[0]!.row).toBe(3);

    const download = await call(getRejected, { body: { id: jobId }, headers: auth(admin) });
    expect(download.status).toBe(200);
    expect(download.body.truncated).toBe(true);
    const rows = parse(String(download.body.csv)) as string[][];
    expect(rows).toHaveLength(1 + 1000);
    expect(rows[1]![CSV_COLUMNS.indexOf('spu_no')]).toBe('many-bad-0');
    expect(rows.at(-1)![CSV_COLUMNS.indexOf('spu_no')]).toBe('many-bad-999');
  });
});

describe('an unknown job id', () => {
  const unknown = 'f'.repeat(32);
  it.each([
    ['getImportJob', getImportJob],
    ['getImportIssues', getImportIssues],
    ['getRejectedRowsCsv', getRejected],
  ] as const)('%s answers 404', async (_name, handler) => {
    const result = await call(handler, { body: { id: unknown }, headers: auth(admin) });
    expect(result.status).toBe(404);
    expect(result.body.message).toBe('There is no import with that id.');
  });
});
