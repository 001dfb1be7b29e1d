import { GetObjectCommand, S3Client, type GetObjectCommandOutput } from '@aws-sdk/client-s3';
import { parse } from 'csv-parse/sync';
import { mockClient } from 'aws-sdk-client-mock';
import { Readable } from 'node:stream';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CSV_COLUMNS, productIdFromSpuNo } from '../../shared/src/domain/csv-product';
import { handler as getImportJob } from '../../functions/src/handlers/get-import-job';
import { handler as getRejected } from '../../functions/src/handlers/get-rejected-rows-csv';
import { handler as importProducts } from '../../functions/src/handlers/s3/import-products';
import { IMPORT_STOPPED } from '../../functions/src/imports/run-import';
import { auth, importCsv, objectCreatedEvent, tokenFor, uploadHeld } from './catalogue-helpers';
import { DynamoFaults } from './dynamo-faults';
import { allItems, asFunction, call } from './helpers';

/**
 * What an import does when AWS misbehaves in ways the local engines never do: DynamoDB throttles
 * and leaves batch writes unprocessed; S3's stream breaks half-way through the file. Each test runs
 * the real S3 event handler against DynamoDB Local and the S3 server, with only the failing call
 * faked, and reads back what is stored.
 */

let admin = '';
beforeAll(async () => {
  admin = await tokenFor(true);
});

const header = CSV_COLUMNS.join(',');
let counter = 0;
const spu = (label: string) => `AF-${label}-${Date.now().toString(36)}-${counter++}`;
const row = (spuNo: string, name = 'Travel Mug', msrp = '24.99') =>
  `${name},Brandly,${msrp},12.95,https://img.example.test/${spuNo}/1.jpg,,,,,,,<p>Hot.</p>,https://supplier.example.test/${spuNo},${spuNo}`;
const csv = (...rows: string[]) => [header, ...rows].join('\n') + '\n';

/** Every Product item stored for these spu_no values (a Scan: duplicates under other keys would show). */
const storedProducts = async (spus: readonly string[]) => {
  const ids = new Set(spus.map((s) => productIdFromSpuNo(s)));
  return (await allItems()).filter((item) => item.entity === 'Product' && ids.has(String(item.id)));
};
/** Matches a request that writes this product. */
const holds = (spuNo: string) => (input: string) => input.includes(productIdFromSpuNo(spuNo));
const jobSeen = async (id: string) => (await call(getImportJob, { body: { id }, headers: auth(admin) })).body;

let faults: DynamoFaults | undefined;
let s3: ReturnType<typeof mockClient> | undefined;
/** The real `send`, taken before aws-sdk-client-mock stubs it, to pass calls through to the S3 server. */
const realSend = S3Client.prototype.send as (
  this: S3Client,
  command: GetObjectCommand,
) => Promise<GetObjectCommandOutput>;
afterEach(() => {
  faults?.restore();
  faults = undefined;
  s3?.restore();
  s3 = undefined;
});

describe('DynamoDB throttles the import', () => {
  it('retries with backoff and jitter, and the job ends with every row written once and counted right', async () => {
    const spus = Array.from({ length: 230 }, (_, i) => spu(`throttle-${i}`));
    const bad = [row('bad-1', 'Bad', 'x'), row('bad-2', 'Bad', 'y')];
    // The last 30 exist already (an older version): their states are read, the 200 others are new.
    await importCsv(admin, 'throttled-before.csv', csv(...spus.slice(200).map((s) => row(s, 'Older Mug'))));
    const { jobId, key } = await uploadHeld(admin, 'throttled.csv', csv(...spus.map((s) => row(s)), ...bad));
    const event = await objectCreatedEvent(key);

    faults = new DynamoFaults()
      // The states of the products that exist: one BatchGet throttled once (the SDK retries it).
      .fail('BatchGetItemCommand', 'ProvisionedThroughputExceededException', { which: 1 })
      // New products go in BatchWrites of 25 (the import holds the catalogue write lease): one is
      // throttled more often than the SDK retries (it gives up after its own attempts and the
      // import's loop tries again); DynamoDB does only part of another.
      .fail('BatchWriteItemCommand', 'ThrottlingException', { which: [1, 2, 3, 4, 5], when: holds(spus[0]!) })
      .leaveUnprocessed(3, 1, holds(spus[150]!))
      // The rejected rows are stored with BatchWrite: DynamoDB does part of the first one, then
      // throttles the retry beyond the SDK's attempts.
      .leaveUnprocessed(1, 1)
      .fail('BatchWriteItemCommand', 'ProvisionedThroughputExceededException', { which: [2, 3, 4, 5, 6] })
      // An update throttled once (the claim is the first, the catalogue write lease the second).
      .fail('UpdateItemCommand', 'ThrottlingException', { which: 2 });

    await asFunction('importProducts', () => importProducts(event));

    // Every fault above was met (a fault never met proves nothing).
    const met = (command: string) => faults!.log.failed.filter((name) => name === command).length;
    expect(met('BatchGetItemCommand')).toBe(1);
    expect(met('BatchWriteItemCommand')).toBe(5 + 5);
    expect(faults.log.unprocessed).toEqual([1, 3]);
    expect(met('UpdateItemCommand')).toBe(1);

    // Every row once: one item per product, written once, nothing counted twice.
    const stored = await storedProducts(spus);
    expect(stored).toHaveLength(230);
    expect(new Set(stored.map((item) => item.id)).size).toBe(230);
    expect(stored.every((item) => item.lastJobId === jobId && item.status === 'review')).toBe(true);
    expect(await jobSeen(jobId)).toMatchObject({
      status: 'completed',
      rowsRead: 232,
      created: 200,
      updated: 30,
      unchanged: 0,
      rejected: 2,
      failure: null,
    });
    // The rejected rows, stored through the partly done and throttled BatchWrites, each once.
    const download = await call(getRejected, { body: { id: jobId }, headers: auth(admin) });
    const rows = parse(String(download.body.csv)) as string[][];
    expect(rows.slice(1).map((r) => r[CSV_COLUMNS.indexOf('spu_no')])).toEqual(['bad-1', 'bad-2']);
  });
});

describe('the S3 read fails half-way through the file', () => {
  /**
   * aws-sdk-client-mock on S3Client: GetObject goes to the real S3 server through the real
   * client, and only the body it answers breaks after `bytes` bytes on the chosen read (1: the
   * validation pass, 2: the import pass), as a dropped connection does. Every other command
   * passes through untouched.
   */
  function breakRead(which: number, bytes: number) {
    let reads = 0;
    s3 = mockClient(S3Client);
    s3.onAnyCommand().rejects(new Error('This test expects no S3 call but GetObject.'));
    s3.on(GetObjectCommand).callsFake(async (input: GetObjectCommand['input'], getClient: () => unknown) => {
      const output = await realSend.call(getClient() as S3Client, new GetObjectCommand(input));
      reads += 1;
      if (reads !== which) return output;
      const body = output.Body as AsyncIterable<Uint8Array>;
      // Small pieces, as a slow network delivers them, so the import pass writes some batches first.
      const broken = Readable.from(
        (async function* () {
          let seen = 0;
          for await (const chunk of body) {
            for (let at = 0; at < chunk.length; at += 1024) {
              const piece = chunk.subarray(at, at + 1024);
              if (seen + piece.length > bytes) throw Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
              seen += piece.length;
              yield piece;
            }
          }
        })(),
        { objectMode: false },
      );
      return { ...output, Body: broken };
    });
    return { reads: () => reads };
  }

  it.each([
    ['validating (the first read)', 1],
    ['importing (the second read)', 2],
  ] as const)(
    'while %s: the job is failed in words, and the redelivered event finishes it with no duplicate',
    async (_phase, which) => {
      const spus = Array.from({ length: 400 }, (_, i) => spu(`read${which}-${i}`));
      const content = csv(...spus.map((s) => row(s)));
      const { jobId, key } = await uploadHeld(admin, `broken-read-${which}.csv`, content);
      const event = await objectCreatedEvent(key);

      const broken = breakRead(which, Math.floor(Buffer.byteLength(content) * 0.6));
      await expect(asFunction('importProducts', () => importProducts(event))).rejects.toThrow(/aborted/);
      expect(broken.reads()).toBe(which);
      s3!.restore();

      // What the admin sees in the import screen: failed, in words, without the SDK's message.
      const failed = await jobSeen(jobId);
      expect(failed).toMatchObject({ status: 'failed', failure: IMPORT_STOPPED });
      expect(JSON.stringify(failed)).not.toMatch(/aborted|ECONNRESET/);
      // What is kept: nothing when validation broke; the batches written before the break otherwise.
      const kept = await storedProducts(spus);
      if (which === 1) expect(kept).toEqual([]);
      else {
        expect(kept.length).toBeGreaterThan(0);
        expect(kept.length).toBeLessThan(400);
        expect(failed.created).toBe(kept.length);
      }

      // Lambda redelivers the same event (same key, same ETag): the import finishes, each row once.
      await asFunction('importProducts', () => importProducts(event));
      const stored = await storedProducts(spus);
      expect(stored).toHaveLength(400);
      expect(new Set(stored.map((item) => item.id)).size).toBe(400);
      const done = await jobSeen(jobId);
      expect(done).toMatchObject({ status: 'completed', rowsRead: 400, updated: 0, failure: null });
      // The second run creates what the first did not reach and finds the rest as it left them.
      expect(done.created).toBe(400 - kept.length);
      expect(done.unchanged).toBe(kept.length);
    },
  );
});
