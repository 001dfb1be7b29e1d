import { beforeAll, describe, expect, it } from 'vitest';
import { CSV_COLUMNS, productIdFromSpuNo } from '../../shared/src/domain/csv-product';
import { dynamoImports } from '../../functions/src/adapters/imports/dynamo-imports';
import { dynamoProducts } from '../../functions/src/adapters/products/dynamo-products';
import { s3Files } from '../../functions/src/adapters/imports/s3-files';
import { handler as approve } from '../../functions/src/handlers/approve-product';
import { handler as ban } from '../../functions/src/handlers/ban-product';
import { handler as createUpload } from '../../functions/src/handlers/create-product-upload';
import { handler as getApprovedProduct } from '../../functions/src/handlers/get-approved-product';
import { handler as getApprovedProducts } from '../../functions/src/handlers/get-approved-products';
import { handler as getImportIssues } from '../../functions/src/handlers/get-import-issues';
import { handler as getImportJob } from '../../functions/src/handlers/get-import-job';
import { handler as getImportedProduct } from '../../functions/src/handlers/get-imported-product';
import { handler as getRejected } from '../../functions/src/handlers/get-rejected-rows-csv';
import { handler as getUnApproved } from '../../functions/src/handlers/get-unapproved-products';
import { handler as importProducts } from '../../functions/src/handlers/s3/import-products';
import { handler as upload } from '../../functions/src/handlers/upload-products';
import { queuedJob } from '../../functions/src/imports/jobs';
import { STALE_AFTER_MS, runImport } from '../../functions/src/imports/run-import';
import type { FileStore } from '../../functions/src/imports/job-store';
import {
  auth,
  fixture,
  importCsv,
  multipart,
  objectCreatedEvent,
  s3Events,
  tokenFor,
  uploadCsv,
  uploadHeld,
} from './catalogue-helpers';
import { allItems, asFunction, call } from './helpers';
import { toApiEvent } from '../../infra/local/api-event';
import { MAX_DIRECT_UPLOAD_BYTES } from '../../shared/src/api/limits';
import { MAX_MULTIPART_BYTES } from '../../functions/src/http/api-handler';

let admin = '';
let member = '';
beforeAll(async () => {
  [admin, member] = await Promise.all([tokenFor(true), tokenFor(false)]);
});

const header = CSV_COLUMNS.join(',');
let spuCounter = 0;
const spu = (label: string) => `T-${label}-${Date.now().toString(36)}-${spuCounter++}`;
function csvRow(spuNo: string, name = 'Travel Mug', dropship = '12.95', msrp = '24.99') {
  return `${name},Brandly,${msrp},${dropship},https://img.example.test/${spuNo}/1.jpg,https://img.example.test/${spuNo}/2.jpg,,,,,https://img.example.test/${spuNo}/extra.jpg,<p>Keeps coffee hot.</p>,https://supplier.example.test/${spuNo},${spuNo}`;
}
const csv = (...rows: string[]) => [header, ...rows].join('\n') + '\n';

/** What Approve sends: the product and the version the admin has on screen (getImportedProduct). */
async function reviewed(id: string): Promise<{ id: string; version: string }> {
  const product = await call(getImportedProduct, { body: { id }, headers: auth(admin) });
  return { id, version: String(product.body.version) };
}

const job = async (id: string) => (await call(getImportJob, { body: { id }, headers: auth(admin) })).body;
const productItems = async () => (await allItems()).filter((item) => item.entity === 'Product');
/**
 * The import jobs, by key: what a refused upload must not add. (The whole table is not compared: an
 * import an earlier test started may still be writing its lease's heartbeat and its products.)
 */
const importJobKeys = async () =>
  (await allItems())
    .filter((item) => String(item.pk).startsWith('IMPORT#') && item.sk === 'JOB')
    .map((item) => String(item.pk))
    .sort();

async function allUnapproved(): Promise<{ id: string; product_name: string; status: string }[]> {
  const items: { id: string; product_name: string; status: string }[] = [];
  let cursor: string | undefined;
  do {
    const page = await call(getUnApproved, {
      body: { limit: 100, ...(cursor ? { cursor } : {}) },
      headers: auth(admin),
    });
    items.push(...(page.body.items as typeof items));
    cursor = (page.body.nextCursor as string | null) ?? undefined;
  } while (cursor);
  return items;
}

async function allApproved(): Promise<{ id: string; product_name: string }[]> {
  const items: { id: string; product_name: string }[] = [];
  let cursor: string | undefined;
  do {
    const page = await call(getApprovedProducts, {
      body: { limit: 100, ...(cursor ? { cursor } : {}) },
      headers: auth(member),
    });
    items.push(...(page.body.items as typeof items));
    cursor = (page.body.nextCursor as string | null) ?? undefined;
  } while (cursor);
  return items;
}

describe('upload and import', () => {
  it('stores the CSV, answers the queued job and the products in review; the S3 event imports it', async () => {
    const a = spu('a');
    const b = spu('b');
    const uploaded = await uploadCsv(admin, 'supplier.csv', csv(csvRow(a), csvRow(b, 'Desk Lamp', '20.00')));
    expect(uploaded.status).toBe(200);
    expect(uploaded.body.job).toMatchObject({ status: 'queued', fileName: 'supplier.csv', rowsRead: 0 });
    expect(uploaded.body.unApprovedProducts).toHaveProperty('items');

    const jobId = (uploaded.body.job as { id: string }).id;
    // The file is in the S3 server, and its ObjectCreated event runs the import.
    await s3Events.idle();
    // A claimed job stays (a job whose file never arrives expires: see the presigned POST below).
    expect((await dynamoImports.get(jobId))!.expiresAt).toBeNull();

    expect(await job(jobId)).toMatchObject({
      status: 'completed',
      rowsRead: 2,
      created: 2,
      updated: 0,
      unchanged: 0,
      rejected: 0,
      rowsDone: 2,
      failure: null,
    });
    const inReview = await allUnapproved();
    const lamp = inReview.find((p) => p.id === productIdFromSpuNo(b));
    expect(lamp).toMatchObject({
      product_name: 'Desk Lamp',
      status: 'review',
      image: `https://img.example.test/${b}/1.jpg`,
    });
    // List cards stay small: the description and image list come with the detail only.
    expect(lamp).not.toHaveProperty('html_description');
    expect(lamp).not.toHaveProperty('images');
    const detail = await call(getImportedProduct, { body: { id: productIdFromSpuNo(b) }, headers: auth(admin) });
    expect(detail.body).toMatchObject({
      spu_no: b,
      msrp_us: '24.99',
      dropshipping_price_us: '20.00',
      you_make: '2.00',
      images: [
        `https://img.example.test/${b}/1.jpg`,
        `https://img.example.test/${b}/2.jpg`,
        `https://img.example.test/${b}/extra.jpg`,
      ],
      url: `https://supplier.example.test/${b}`,
      hasApprovedVersion: false,
    });
  });

  it('imports once when the same S3 event is delivered twice, even at the same time', async () => {
    const a = spu('twice');
    // S3's own delivery is held back: this test delivers the event, built by hand, three times.
    const { jobId, key } = await uploadHeld(admin, 'twice.csv', csv(csvRow(a)));
    const event = await objectCreatedEvent(key);
    const run = () => asFunction('importProducts', () => importProducts(event));
    await Promise.all([run(), run()]);
    const afterFirst = await dynamoImports.get(jobId);
    await run();
    const afterThird = await dynamoImports.get(jobId);
    expect(afterFirst).toMatchObject({ status: 'completed', created: 1, attempt: 1 });
    expect(afterThird).toEqual(afterFirst);
  });

  it('writes nothing for a re-imported unchanged file', async () => {
    const a = spu('same');
    const content = csv(csvRow(a));
    await importCsv(admin, 'same.csv', content);
    const before = (await productItems()).find((item) => item.id === productIdFromSpuNo(a));
    const second = await importCsv(admin, 'same-again.csv', content);
    expect(await job(second.jobId)).toMatchObject({ status: 'completed', created: 0, updated: 0, unchanged: 1 });
    expect((await productItems()).find((item) => item.id === productIdFromSpuNo(a))).toEqual(before);
  });

  it('updates a changed unapproved product in place', async () => {
    const a = spu('change');
    await importCsv(admin, 'v1.csv', csv(csvRow(a, 'Old Name')));
    const second = await importCsv(admin, 'v2.csv', csv(csvRow(a, 'New Name')));
    expect(await job(second.jobId)).toMatchObject({ created: 0, updated: 1 });
    const product = await dynamoProducts.get(productIdFromSpuNo(a));
    expect(product).toMatchObject({ status: 'review', current: { product_name: 'New Name' } });
    expect(product?.approved).toBeUndefined();
  });

  it('sends a changed approved product back to review, while members keep seeing the approved values', async () => {
    const a = spu('approved');
    const id = productIdFromSpuNo(a);
    await importCsv(admin, 'first.csv', csv(csvRow(a, 'Trail Mug', '10.00')));
    expect((await call(approve, { body: await reviewed(id), headers: auth(admin) })).status).toBe(200);

    await importCsv(admin, 'second.csv', csv(csvRow(a, 'Trail Mug Pro', '30.00')));
    expect((await allUnapproved()).find((p) => p.id === id)).toMatchObject({ product_name: 'Trail Mug Pro' });
    const seen = await call(getApprovedProduct, { body: { id }, headers: auth(member) });
    expect(seen.body).toMatchObject({ product_name: 'Trail Mug', dropshipping_price_us: '10.00', you_make: '1.00' });
    const imported = await call(getImportedProduct, { body: { id }, headers: auth(admin) });
    expect(imported.body).toMatchObject({ status: 'review', hasApprovedVersion: true });

    expect((await call(approve, { body: await reviewed(id), headers: auth(admin) })).status).toBe(200);
    const after = await call(getApprovedProduct, { body: { id }, headers: auth(member) });
    expect(after.body).toMatchObject({
      product_name: 'Trail Mug Pro',
      dropshipping_price_us: '30.00',
      you_make: '3.00',
    });
  });

  it('shows the admin what an update to an approved product changes: old and new value of each changed field', async () => {
    const a = spu('changes');
    const id = productIdFromSpuNo(a);
    const img = (name: string) => `https://img.example.test/${a}/${name}.jpg`;
    const row = (name: string, brand: string, msrp: string, dropship: string, images: string[], description: string) =>
      `${name},${brand},${msrp},${dropship},${images.join(',')}${','.repeat(6 - images.length)},,"${description}",https://supplier.example.test/${a},${a}`;
    await importCsv(
      admin,
      'v1.csv',
      csv(row('Trail Mug', 'Brandly', '24.99', '12.95', [img('1'), img('2')], '<p>Old.</p>')),
    );
    const fresh = await call(getImportedProduct, { body: { id }, headers: auth(admin) });
    expect(fresh.body.changes).toBeNull();
    expect((await call(approve, { body: await reviewed(id), headers: auth(admin) })).status).toBe(200);
    expect((await call(getImportedProduct, { body: { id }, headers: auth(admin) })).body.changes).toEqual([]);

    await importCsv(
      admin,
      'v2.csv',
      csv(row('Trail Mug Pro', 'Brandly', '29.99', '14.50', [img('1'), img('3')], '<p>New <b>and</b> better.</p>')),
    );
    const updated = await call(getImportedProduct, { body: { id }, headers: auth(admin) });
    expect(updated.body).toMatchObject({ status: 'review', hasApprovedVersion: true });
    expect(updated.body.changes).toEqual([
      { field: 'product_name', before: 'Trail Mug', after: 'Trail Mug Pro' },
      { field: 'msrp_us', before: '24.99', after: '29.99' },
      { field: 'dropshipping_price_us', before: '12.95', after: '14.50' },
      {
        field: 'images',
        before: [img('1'), img('2')],
        after: [img('1'), img('3')],
        added: [img('3')],
        removed: [img('2')],
      },
      { field: 'html_description', before: '<p>Old.</p>', after: '<p>New <b>and</b> better.</p>' },
    ]);
    // Banned: members see nothing, so there is nothing to compare with.
    expect((await call(ban, { body: { id }, headers: auth(admin) })).status).toBe(200);
    expect((await call(getImportedProduct, { body: { id }, headers: auth(admin) })).body.changes).toBeNull();
  });

  it('leaves a banned product banned when it is imported again, changed or not', async () => {
    const a = spu('banned');
    const id = productIdFromSpuNo(a);
    await importCsv(admin, 'ban-1.csv', csv(csvRow(a)));
    expect((await call(ban, { body: { id }, headers: auth(admin) })).status).toBe(200);
    const again = await importCsv(admin, 'ban-2.csv', csv(csvRow(a, 'Renamed')));
    expect(await job(again.jobId)).toMatchObject({ banned: 1, created: 0, updated: 0 });
    expect(await dynamoProducts.get(id)).toMatchObject({ status: 'banned', current: { product_name: 'Travel Mug' } });
    expect((await allUnapproved()).some((p) => p.id === id)).toBe(false);
  });

  it('keeps the last row of a repeated spu_no, with a warning', async () => {
    const a = spu('dup');
    const { jobId } = await importCsv(admin, 'dup.csv', csv(csvRow(a, 'First'), csvRow(a, 'Second')));
    expect(await job(jobId)).toMatchObject({ rowsRead: 2, created: 1, warnings: 1 });
    expect(await dynamoProducts.get(productIdFromSpuNo(a))).toMatchObject({ current: { product_name: 'Second' } });
  });

  it('rejects a damaged file as a whole: the job says where it broke and no product is written', async () => {
    const before = await productItems();
    const { jobId } = await importCsv(admin, 'broken.csv', fixture('unterminated-quote.csv'));
    const result = await job(jobId);
    expect(result.status).toBe('rejected');
    expect(String(result.failure)).toMatch(/line \d+/);
    expect(String(result.failure)).toMatch(/No rows were imported\.$/);
    expect(await productItems()).toEqual(before);
  });

  it('rejects a file missing required columns, naming them', async () => {
    const { jobId } = await importCsv(admin, 'columns.csv', fixture('missing-columns.csv'));
    const result = await job(jobId);
    expect(result.status).toBe('rejected');
    expect(String(result.failure)).toMatch(/msrp_us|dropshipping_price_us|spu_no|product_name/);
  });

  it('imports the good rows of a file with bad rows, lists the bad ones and offers them as formula-safe CSV', async () => {
    const good = spu('good');
    const bad = spu('bad');
    const { jobId } = await importCsv(admin, 'mixed.csv', csv(csvRow(good), `=1+2,Brandly,abc,12.345,,,,,,,,,,${bad}`));
    expect(await job(jobId)).toMatchObject({ status: 'completed', rowsRead: 2, created: 1, rejected: 1 });
    const issues = await call(getImportIssues, { body: { id: jobId }, headers: auth(admin) });
    const errors = (issues.body.items as { row: number; column: string; severity: string }[]).filter(
      (i) => i.severity === 'error',
    );
    expect(errors.map((e) => [e.row, e.column])).toEqual(
      expect.arrayContaining([
        [3, 'msrp_us'],
        [3, 'dropshipping_price_us'],
      ]),
    );
    const download = await call(getRejected, { body: { id: jobId }, headers: auth(admin) });
    expect(download.body.fileName).toBe('mixed-rejected-rows.csv');
    const text = String(download.body.csv);
    expect(text.split('\r\n')[0]).toBe(
      `${CSV_COLUMNS.map((c) => `"${c}"`).join(',')},"[portal] outcome","[portal] row","[portal] problem"`,
    );
    expect(text).toMatch(
      /,"rejected","3","Rejected: \[msrp_us\] 'abc' is not a price[^"]*\| \[dropshipping_price_us\] '12\.345' has more than two decimals/,
    );
    for (const line of text.split('\r\n').slice(1)) {
      for (const cell of line.match(/"((?:[^"]|"")*)"/g) ?? []) expect(cell).not.toMatch(/^"[=+\-@\t\r]/);
    }
  });

  it('stores the two clean rows of xss-payloads.csv with sanitized descriptions, and rejects the two with markup in plain text', async () => {
    const ids = ['SPU-90001', 'SPU-90002', 'SPU-90003', 'SPU-90004'].map((s) => productIdFromSpuNo(s));
    const { jobId } = await importCsv(admin, 'xss.csv', fixture('xss-payloads.csv'));
    expect(await job(jobId)).toMatchObject({ status: 'completed', rowsRead: 4, created: 2, rejected: 2 });
    const issues = (await call(getImportIssues, { body: { id: jobId }, headers: auth(admin) })).body.items;
    expect(issues).toEqual([
      {
        row: 2,
        column: 'product_name',
        message: "contains HTML markup ('<script>'); it must be plain text",
        severity: 'error',
      },
      {
        row: 4,
        column: 'brand',
        message: "contains HTML markup ('<img src=x onerror=alert(1)>'); it must be plain text",
        severity: 'error',
      },
    ]);
    // Exactly the two clean rows are stored, each with its description sanitized.
    const stored = (await productItems()).filter((item) => ids.includes(String(item.id)));
    expect(stored.map((item) => item.id).sort()).toEqual([ids[1], ids[3]].sort());
    expect(await dynamoProducts.get(ids[1]!)).toMatchObject({
      status: 'review',
      current: {
        spu_no: 'SPU-90002',
        product_name: 'Fitness Tracker Band',
        html_description:
          '<p>Tracks steps, sleep and heart rate.</p><a target="_blank" rel="noopener noreferrer">Specs</a><p>Water-resistant to 50 m.</p>',
      },
    });
    expect(await dynamoProducts.get(ids[3]!)).toMatchObject({
      status: 'review',
      // A name is plain text: React shows it as text, so words that look like an attribute are harmless.
      current: {
        spu_no: 'SPU-90004',
        product_name: 'Phone Case onmouseover=alert(1)',
        html_description: '<p>Slim fit.</p>',
      },
    });
    // And the admin's view of them says the same.
    const detail = await call(getImportedProduct, { body: { id: ids[1] }, headers: auth(admin) });
    expect(detail.body.html_description).toBe(
      '<p>Tracks steps, sleep and heart rate.</p><a target="_blank" rel="noopener noreferrer">Specs</a><p>Water-resistant to 50 m.</p>',
    );
    expect(JSON.stringify(stored)).not.toMatch(/<script|onerror=|onload=|javascript:|onclick=|<iframe|<svg|style=/i);
  });
});

describe('a crash in the middle of a file', () => {
  it('leaves the job failed, and a re-run converges to the same products', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => csvRow(spu(`crash${i}`), `Item ${i}`));
    const content = Buffer.from(csv(...rows));
    const { jobId, key } = await uploadHeld(admin, 'crash.csv', content);

    // The second read (the import pass) breaks after ~60 % of the file.
    let reads = 0;
    const flaky: FileStore = {
      ...s3Files,
      async read(bucket, objectKey, eTag) {
        reads += 1;
        const stream = await s3Files.read(bucket, objectKey, eTag);
        if (reads !== 2) return stream;
        return (async function* () {
          let seen = 0;
          // Small pieces, as a slow network delivers them, so some batches are written before the break.
          for await (const chunk of stream) {
            for (let at = 0; at < chunk.length; at += 2048) {
              seen += Math.min(2048, chunk.length - at);
              if (seen > content.length * 0.6) throw new Error('connection reset');
              yield chunk.subarray(at, at + 2048);
            }
          }
        })() as unknown as Awaited<ReturnType<FileStore['read']>>;
      },
    };
    const deps = { jobs: dynamoImports, products: dynamoProducts, batchSize: 25 };
    await expect(runImport({ ...deps, files: flaky }, { bucket: s3Files.bucket(), key })).rejects.toThrow(
      /connection reset/,
    );
    const failed = await dynamoImports.get(jobId);
    expect(failed).toMatchObject({ status: 'failed' });
    expect(failed!.failure).toMatch(/retried automatically/);
    expect(failed!.created).toBeGreaterThan(0);
    expect(failed!.created).toBeLessThan(300);

    expect(await runImport({ ...deps, files: s3Files }, { bucket: s3Files.bucket(), key })).toBe('completed');
    const done = await dynamoImports.get(jobId);
    expect(done).toMatchObject({ status: 'completed', rowsRead: 300, attempt: 2 });
    expect(done!.created + done!.unchanged).toBe(300);
    const ids = rows.map((row) => productIdFromSpuNo(row.split(',').at(-1)!));
    const states = await dynamoProducts.states(ids);
    expect(states.size).toBe(300);
  });
});

describe('a run that died without a word (a timeout runs no catch)', () => {
  it('shows as failed once its heartbeat is older than STALE_AFTER_MS; a live run stays running', async () => {
    const claimedAt = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();
    const runningJob = async (heartbeatMsAgo: number) => {
      const queued = queuedJob('timeout.csv', s3Files.bucket(), claimedAt(heartbeatMsAgo));
      await dynamoImports.create(queued);
      const at = claimedAt(heartbeatMsAgo);
      expect(await dynamoImports.claim(queued, at, claimedAt(heartbeatMsAgo + STALE_AFTER_MS))).toBe(1);
      return queued.id;
    };
    const dead = await runningJob(STALE_AFTER_MS + 60_000);
    const alive = await runningJob(30_000);
    expect(await dynamoImports.get(dead)).toMatchObject({ status: 'running' });

    const seen = await job(dead);
    expect(seen).toMatchObject({ status: 'failed', phase: null });
    expect(seen.failure).toMatch(/stopped without finishing/);
    expect(seen.failure).toMatch(/upload the file again/i);
    expect(await job(alive)).toMatchObject({ status: 'running', failure: null });
  });
});

describe('states read during validation that change before the write', () => {
  it('an admin who bans or approves between the two passes is not overridden', async () => {
    const [banned, approved] = [spu('stale-ban'), spu('stale-approve')];
    const [bannedId, approvedId] = [productIdFromSpuNo(banned), productIdFromSpuNo(approved)];
    await importCsv(admin, 'stale-1.csv', csv(csvRow(banned), csvRow(approved)));

    // The changed file is validated (and its products' states prefetched) before the admins act.
    const changed = Buffer.from(csv(csvRow(banned, 'Renamed Mug'), csvRow(approved, 'Renamed Mug', '13.95')));
    const { jobId, key } = await uploadHeld(admin, 'stale-2.csv', changed);
    let reads = 0;
    const stateReads: string[][] = [];
    let prefetched!: () => void;
    const prefetchDone = new Promise<void>((resolve) => (prefetched = resolve));
    const products = {
      ...dynamoProducts,
      async states(ids: readonly string[]) {
        const found = await dynamoProducts.states(ids);
        stateReads.push([...ids]);
        prefetched();
        return found;
      },
    };
    const actsBetweenPasses: FileStore = {
      ...s3Files,
      async read(bucket, objectKey, eTag) {
        reads += 1;
        if (reads === 2) {
          await prefetchDone;
          // Only admins can act here: another import waits for this run's catalogue write lease.
          await call(ban, { body: { id: bannedId }, headers: auth(admin) });
          await call(approve, { body: await reviewed(approvedId), headers: auth(admin) });
        }
        return s3Files.read(bucket, objectKey, eTag);
      },
    };
    const deps = { jobs: dynamoImports, products, files: actsBetweenPasses };
    expect(await runImport(deps, { bucket: s3Files.bucket(), key })).toBe('completed');
    // Both states were read once ahead of time, then each product again when its conditional write failed.
    expect(stateReads[0]?.sort()).toEqual([bannedId, approvedId].sort());
    expect(stateReads.slice(1).sort()).toEqual([[bannedId], [approvedId]].sort());

    expect(await dynamoProducts.get(bannedId)).toMatchObject({ status: 'banned' });
    const revised = await dynamoProducts.get(approvedId);
    expect(revised).toMatchObject({ status: 'review' });
    expect(revised!.current.product_name).toBe('Renamed Mug');
    expect(revised!.approved!.product_name).toBe('Travel Mug');
    expect(await dynamoImports.get(jobId)).toMatchObject({ status: 'completed', banned: 1, updated: 1 });
  });
});

describe('moderation', () => {
  it('approve and ban act once: a second click, or a second admin, gets 409 and changes nothing', async () => {
    const a = spu('mod');
    const id = productIdFromSpuNo(a);
    await importCsv(admin, 'mod.csv', csv(csvRow(a)));
    const [first, second] = await Promise.all([
      call(approve, { body: await reviewed(id), headers: auth(admin) }),
      call(approve, { body: await reviewed(id), headers: auth(admin) }),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    const snapshot = await dynamoProducts.get(id);
    const banned = await call(ban, { body: { id }, headers: auth(admin) });
    expect(banned.status).toBe(409);
    expect(banned.body.message).toMatch(/no longer waiting for review/);
    expect(await dynamoProducts.get(id)).toEqual(snapshot);
  });

  it('approves only the version the admin saw: an import that changed the product since is a 409, and nothing is published', async () => {
    const a = spu('seen');
    const id = productIdFromSpuNo(a);
    await importCsv(admin, 'seen-1.csv', csv(csvRow(a, 'Seen Lamp', '10.00')));
    const opened = await call(getImportedProduct, { body: { id }, headers: auth(admin) });
    expect(opened.body).toMatchObject({ product_name: 'Seen Lamp', version: expect.stringMatching(/^[0-9a-f]{64}$/) });

    // While the admin looks, an import changes the product.
    await importCsv(admin, 'seen-2.csv', csv(csvRow(a, 'Unseen Lamp', '11.00')));
    const stale = await call(approve, { body: { id, version: opened.body.version }, headers: auth(admin) });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe(
      'This product changed since you opened it: review the new values, then approve again.',
    );
    expect(await dynamoProducts.get(id)).toMatchObject({ status: 'review', current: { product_name: 'Unseen Lamp' } });
    expect((await dynamoProducts.get(id))!.approved).toBeUndefined();
    expect((await call(getApprovedProduct, { body: { id }, headers: auth(member) })).status).toBe(404);

    // Opened again, the new version is approved.
    const reopened = await call(getImportedProduct, { body: { id }, headers: auth(admin) });
    expect(reopened.body.version).not.toBe(opened.body.version);
    const approved = await call(approve, { body: { id, version: reopened.body.version }, headers: auth(admin) });
    expect(approved.status).toBe(200);
    const seen = await call(getApprovedProduct, { body: { id }, headers: auth(member) });
    expect(seen.body).toMatchObject({ product_name: 'Unseen Lamp', dropshipping_price_us: '11.00' });
  });

  it('refuses an approve that names no version with 400; ban needs only the id', async () => {
    const a = spu('noversion');
    const id = productIdFromSpuNo(a);
    await importCsv(admin, 'noversion.csv', csv(csvRow(a)));
    const result = await call(approve, { body: { id }, headers: auth(admin) });
    expect(result.status).toBe(400);
    expect(result.body.fields).toEqual({ version: 'The version is required.' });
    expect(await dynamoProducts.get(id)).toMatchObject({ status: 'review' });
    expect((await call(ban, { body: { id }, headers: auth(admin) })).status).toBe(200);
  });

  it('answers 404 for an unknown product, and 403 to a member', async () => {
    expect((await call(approve, { body: { id: 'nope', version: 'any' }, headers: auth(admin) })).status).toBe(404);
    expect((await call(ban, { body: { id: 'nope' }, headers: auth(member) })).status).toBe(403);
  });

  it('banning an approved product whose update waits for review takes it away from members: list and detail', async () => {
    const a = spu('ban-seen');
    const id = productIdFromSpuNo(a);
    await importCsv(admin, 'ban-seen-1.csv', csv(csvRow(a, 'Seen Mug', '10.00')));
    expect((await call(approve, { body: await reviewed(id), headers: auth(admin) })).status).toBe(200);
    await importCsv(admin, 'ban-seen-2.csv', csv(csvRow(a, 'Seen Mug Pro', '11.00')));

    // In review with changes, and members still see the approved version: in the list and the detail.
    expect(await dynamoProducts.get(id)).toMatchObject({ status: 'review', current: { product_name: 'Seen Mug Pro' } });
    expect((await allApproved()).find((p) => p.id === id)).toMatchObject({ product_name: 'Seen Mug' });
    const before = await call(getApprovedProduct, { body: { id }, headers: auth(member) });
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ product_name: 'Seen Mug', dropshipping_price_us: '10.00' });

    expect((await call(ban, { body: { id }, headers: auth(admin) })).status).toBe(200);
    expect((await allApproved()).some((p) => p.id === id)).toBe(false);
    const after = await call(getApprovedProduct, { body: { id }, headers: auth(member) });
    expect(after.status).toBe(404);
    expect(after.body.message).toBe('This product is not in the catalogue.');
    expect((await allUnapproved()).some((p) => p.id === id)).toBe(false);
  });

  it('a banned product leaves the catalogue and the review list', async () => {
    const a = spu('gone');
    const id = productIdFromSpuNo(a);
    await importCsv(admin, 'gone.csv', csv(csvRow(a)));
    await call(ban, { body: { id }, headers: auth(admin) });
    expect((await call(getApprovedProduct, { body: { id }, headers: auth(member) })).status).toBe(404);
    expect((await allUnapproved()).some((p) => p.id === id)).toBe(false);
  });
});

describe('member catalogue', () => {
  it('lists approved products newest first with You Make, page by page', async () => {
    const ids: string[] = [];
    const spus = [spu('m1'), spu('m2'), spu('m3')];
    await importCsv(admin, 'members.csv', csv(...spus.map((s, i) => csvRow(s, `Member Item ${i}`, `1${i}.95`))));
    for (const s of spus) {
      ids.push(productIdFromSpuNo(s));
      await call(approve, { body: await reviewed(productIdFromSpuNo(s)), headers: auth(admin) });
    }
    const first = await call(getApprovedProducts, { body: { limit: 2 }, headers: auth(member) });
    expect(first.status).toBe(200);
    const items = first.body.items as { id: string; you_make: string; image: string | null }[];
    expect(items.map((p) => p.id)).toEqual([ids[2], ids[1]]);
    expect(items[0]).toMatchObject({ you_make: '1.30', image: expect.stringMatching(/\/1\.jpg$/) });
    const next = await call(getApprovedProducts, {
      body: { limit: 2, cursor: first.body.nextCursor },
      headers: auth(member),
    });
    expect((next.body.items as { id: string }[])[0]!.id).toBe(ids[0]);
  });

  it('never shows a product that was never approved', async () => {
    const a = spu('unseen');
    await importCsv(admin, 'unseen.csv', csv(csvRow(a)));
    const result = await call(getApprovedProduct, { body: { id: productIdFromSpuNo(a) }, headers: auth(member) });
    expect(result.status).toBe(404);
  });

  it('refuses a forged page cursor with 400', async () => {
    const result = await call(getApprovedProducts, { body: { cursor: 'not-a-cursor' }, headers: auth(member) });
    expect(result.status).toBe(400);
    expect(result.body.message).toMatch(/cursor/);
  });

  it('is for logged-in people only; the review list is for admins only', async () => {
    expect((await call(getApprovedProducts, { body: {} })).status).toBe(401);
    expect((await call(getUnApproved, { body: {}, headers: auth(member) })).status).toBe(403);
  });
});

describe('bad uploads are refused in words and store nothing', () => {
  const cases: [string, () => Promise<{ body: Buffer; contentType: string }>, RegExp][] = [
    ['a file that is not .csv', () => multipart('catalogue.xlsx', 'a,b'), /not a \.csv file/],
    ['no file field', () => multipart('x.csv', 'a,b', 'other'), /No file was sent/],
    [
      'a body that is not multipart',
      async () => ({ body: Buffer.from('{}'), contentType: 'application/json' }),
      /multipart\/form-data/,
    ],
  ];

  it.each(cases)('%s', async (_name, make, message) => {
    const before = await importJobKeys();
    const form = await make();
    const result = await call(upload, { rawBody: form.body, contentType: form.contentType, headers: auth(admin) });
    expect(result.status).toBe(400);
    expect(result.body.message).toMatch(message);
    expect(await importJobKeys()).toEqual(before);
  });
});

/**
 * Lambda takes at most 6 MB of request (the event, with the body base64-encoded); API Gateway
 * refuses a larger one before the function runs, with no words of ours. The API's own limit is
 * below it, so an upload that is too large is always answered by the function, in words.
 */
describe('the upload limit is what Lambda can take', () => {
  const LAMBDA_REQUEST_LIMIT = 6_000_000;
  const refused = /larger than 4 MB, the most one upload to the API takes\. Upload it on the Product Import screen/;

  it('keeps the largest body the API takes, base64-encoded in its event, under 6 MB', () => {
    const event = toApiEvent({
      method: 'POST',
      path: '/api/products',
      headers: { 'content-type': 'multipart/form-data; boundary=x', authorization: `Bearer ${'t'.repeat(1000)}` },
      body: Buffer.alloc(MAX_MULTIPART_BYTES, 0xff),
      sourceIp: '198.18.0.1',
    });
    expect(event.isBase64Encoded).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(event))).toBeLessThan(LAMBDA_REQUEST_LIMIT);
  });

  it('takes a file of exactly 4 MB', async () => {
    const form = await multipart('largest.csv', Buffer.alloc(MAX_DIRECT_UPLOAD_BYTES, 'a'));
    const result = await call(upload, { rawBody: form.body, contentType: form.contentType, headers: auth(admin) });
    expect(result.status).toBe(200);
  });

  it.each([
    ['a file one byte over 4 MB (the body within the limit)', MAX_DIRECT_UPLOAD_BYTES + 1],
    ['a 5 MB file (a body over the limit)', 5 * 1024 * 1024],
  ])('refuses %s with a 413 saying what to do, storing nothing', async (_name, size) => {
    const before = await importJobKeys();
    const form = await multipart('big.csv', Buffer.alloc(size, 'a'));
    const result = await call(upload, { rawBody: form.body, contentType: form.contentType, headers: auth(admin) });
    expect(result.status).toBe(413);
    expect(result.body.message).toMatch(refused);
    expect(await importJobKeys()).toEqual(before);
  });
});

describe('large files through a presigned POST', () => {
  it('gives a POST policy that S3 limits to 100 MB, and the posted file imports like any other', async () => {
    const result = await call(createUpload, { body: { fileName: 'large.csv', size: 2048 }, headers: auth(admin) });
    expect(result.status).toBe(200);
    // A job whose file never arrives expires after a day; the import's claim removes that (above).
    const queued = await dynamoImports.get((result.body.job as { id: string }).id);
    expect(queued).toMatchObject({ status: 'queued' });
    expect(queued!.expiresAt! - Date.parse(queued!.createdAt) / 1000).toBeCloseTo(24 * 60 * 60, -1);
    const fields = result.body.fields as Record<string, string>;
    const policy = JSON.parse(Buffer.from(fields.Policy!, 'base64').toString()) as { conditions: unknown[] };
    expect(policy.conditions).toContainEqual(['content-length-range', 1, 100 * 1024 * 1024]);

    const a = spu('post');
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('file', new Blob([csv(csvRow(a))], { type: 'text/csv' }), 'large.csv');
    const posted = await fetch(String(result.body.url), { method: 'POST', body: form });
    expect(posted.status).toBeLessThan(300);

    // The S3 server's event for the posted object runs the import.
    await s3Events.idle();
    const jobId = (result.body.job as { id: string }).id;
    expect(await job(jobId)).toMatchObject({ status: 'completed', created: 1 });
  });

  it('refuses a file over 100 MB before anything is uploaded', async () => {
    const result = await call(createUpload, {
      body: { fileName: 'huge.csv', size: 101 * 1024 * 1024 },
      headers: auth(admin),
    });
    expect(result.status).toBe(400);
    expect(result.body.message).toMatch(/larger than 100 MB/);
  });
});
