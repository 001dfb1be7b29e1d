import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { CSV_COLUMNS, productIdFromSpuNo } from '../../shared/src/domain/csv-product';
import { dynamoImports } from '../../functions/src/adapters/dynamo-imports';
import { dynamoProducts } from '../../functions/src/adapters/dynamo-products';
import { s3Files } from '../../functions/src/adapters/s3-files';
import { handler as getImportIssues } from '../../functions/src/handlers/get-import-issues';
import { handler as getImportJob } from '../../functions/src/handlers/get-import-job';
import { handler as getRejected } from '../../functions/src/handlers/get-rejected-rows-csv';
import { handler as importProducts } from '../../functions/src/handlers/s3/import-products';
import type { FileStore } from '../../functions/src/imports/job-store';
import { FILE_CHANGED, STALE_AFTER_MS, runImport } from '../../functions/src/imports/run-import';
import type { ProductRepository } from '../../functions/src/products/product-store';
import { localAws } from '../../infra/local/dynamo';
import { LOCAL_IMPORTS_BUCKET } from '../../infra/local/s3';
import { auth, importCsv, objectCreatedEvent, s3Events, tokenFor, uploadHeld } from './catalogue-helpers';
import { allItems, call } from './helpers';

/**
 * How an import recovers: a dead run's claim taken over, a file replaced between the two passes,
 * two imports creating the same product at once, more issues than are kept, unknown jobs.
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
  const s3 = new S3Client({ ...localAws, endpoint: process.env.S3_ENDPOINT, forcePathStyle: true });
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
    await importProducts(newEvent);
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
  it('make one product: the first creates it, the second revises it, and neither overwrites the other', async () => {
    const a = spu('race');
    const id = productIdFromSpuNo(a);
    const one = await uploadHeld(admin, 'race-1.csv', csv(row(a, 'First Mug')));
    const two = await uploadHeld(admin, 'race-2.csv', csv(row(a, 'Second Mug')));

    // Both runs read the product's state (missing) before either writes it.
    let arrived = 0;
    let bothRead!: () => void;
    const barrier = new Promise<void>((resolve) => (bothRead = resolve));
    const products: ProductRepository = {
      ...dynamoProducts,
      async states(ids) {
        const found = await dynamoProducts.states(ids);
        if (arrived < 2) {
          arrived += 1;
          if (arrived === 2) bothRead();
          await barrier;
        }
        return found;
      },
    };
    const racing = { ...deps, products };
    const outcomes = await Promise.all([runImport(racing, source(one.key)), runImport(racing, source(two.key))]);
    expect(outcomes).toEqual(['completed', 'completed']);

    const [first, second] = await Promise.all([dynamoImports.get(one.jobId), dynamoImports.get(two.jobId)]);
    expect([first!.created, second!.created].sort()).toEqual([0, 1]);
    expect([first!.updated, second!.updated].sort()).toEqual([0, 1]);
    expect(await productsOf([a])).toHaveLength(1);
    // The product holds the values of the import that revised it, and was created by the other.
    const winner = first!.updated === 1 ? one : two;
    const creator = winner === one ? two : one;
    const product = await dynamoProducts.get(id);
    expect(product).toMatchObject({
      status: 'review',
      lastJobId: winner.jobId,
      current: { product_name: winner === one ? 'First Mug' : 'Second Mug' },
    });
    expect(creator.jobId).not.toBe(winner.jobId);
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
