import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { functionBundling } from '../../infra/lib/bundling';
import { ensureTable, localAws, startDynamo } from '../../infra/local/dynamo';
import { LOCAL_IMPORTS_BUCKET, startS3 } from '../../infra/local/s3';
import { writeLargeCatalogueCsv } from '../../test/fixtures/csv/generate-large';
import { formatTable, type BenchSection } from './section';

/**
 * The catalogue's speed and memory targets (issue: supplier catalogue):
 * - parse and validate at least 50 000 rows/s, peak memory under 256 MB whatever the file size;
 * - end-to-end import into DynamoDB Local at least 80 % of the raw BatchWrite rate for the same items;
 * - the product list and the unapproved list: one Query page each, latency with 1 000 and with
 *   100 000 products within 1.5 times of each other.
 * Every measurement runs in a fresh process (catalogue-worker.ts), so peak memory is its own.
 */

const run = promisify(execFile);
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);

/**
 * The worker runs as one esbuild bundle under plain node, as the import function runs in Lambda:
 * no TypeScript loader in the process, whose own memory (about 35 MB) would count in the peaks.
 */
let bundled: Promise<string> | undefined;
function workerBundle(): Promise<string> {
  bundled ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-bench-worker-'));
    const outfile = join(dir, 'catalogue-worker.cjs');
    await build({
      entryPoints: [join(import.meta.dirname, 'catalogue-worker.ts')],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: functionBundling.target,
      logLevel: 'warning',
    });
    return outfile;
  })();
  return bundled;
}

/** The memory goal of an import, in MB: it must run in a function of this size. */
const MEMORY_GOAL_MB = 256;

/**
 * The V8 heap limits Lambda's Node.js bootstrap gives a function of `memoryMb` (a tenth for the
 * young generation, the rest for the old one). V8 sizes its heap from the memory it can see: on a
 * machine with 24 GB it lets garbage pile up far past what an import keeps alive, so a peak
 * measured that way says more about the machine than about the import. Measured under the limits
 * of a 256 MB function, the peak is what the import needs to run in one.
 */
function lambdaHeapFlags(memoryMb: number): string[] {
  const newSpace = Math.floor(memoryMb / 10);
  return [`--max-semi-space-size=${Math.floor(newSpace / 2)}`, `--max-old-space-size=${memoryMb - newSpace}`];
}

async function measure<T>(...args: string[]): Promise<T> {
  // Only the measurements with a memory goal run under the limits: the raw writer holds every item
  // in memory before its clock starts, and the list bench seeds the table from memory.
  const [mode] = args;
  const limits = mode === 'parse' || mode === 'import' ? lambdaHeapFlags(MEMORY_GOAL_MB) : [];
  const { stdout } = await run(process.execPath, [...limits, await workerBundle(), ...args], {
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  });
  return JSON.parse(stdout.trim().split('\n').pop()!) as T;
}

const rate = (count: number, seconds: number) => Math.round(count / seconds).toLocaleString('en-US');

async function withEngines<T>(body: (dynamo: string, s3: string, dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'portal-bench-'));
  const [dynamo, s3] = await Promise.all([
    startDynamo(),
    startS3({ dataDir: join(dir, 's3'), spoolDir: join(dir, 's3-incoming') }),
  ]);
  try {
    return await body(dynamo.endpoint, s3.endpoint, dir);
  } finally {
    await Promise.all([dynamo.stop(), s3.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
}

export const catalogueImport: BenchSection = {
  name: 'import',
  description: `supplier CSV import, ${ROWS.toLocaleString('en-US')} generated rows`,
  async run() {
    return withEngines(async (dynamoEndpoint, s3Endpoint, dir) => {
      const small = join(dir, 'small.csv');
      const large = join(dir, 'large.csv');
      await writeLargeCatalogueCsv(small, Math.round(ROWS / 10));
      const summary = await writeLargeCatalogueCsv(large, ROWS);
      const mb = (statSync(large).size / 1024 / 1024).toFixed(1);

      type Parse = { rows: number; validateSeconds: number; productSeconds: number; peakRssMb: number };
      const parseSmall = await measure<Parse>('parse', small);
      const parse = await measure<Parse>('parse', large);

      // A plain body: the S3 server stores an aws-chunked (streamed, checksummed) upload as it came.
      const client = new S3Client({
        ...localAws,
        endpoint: s3Endpoint,
        forcePathStyle: true,
        requestChecksumCalculation: 'WHEN_REQUIRED',
      });
      const key = 'imports/bench/large.csv';
      await client.send(new PutObjectCommand({ Bucket: LOCAL_IMPORTS_BUCKET, Key: key, Body: readFileSync(large) }));
      const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
      const dynamo = new DynamoDBClient({ ...localAws, endpoint: dynamoEndpoint });
      await ensureTable(dynamo, 'bench-warm-up');
      await ensureTable(dynamo, 'bench-import');
      await ensureTable(dynamo, 'bench-raw');
      // DynamoDB Local is a JVM: its first 100 000 writes run about a fifth slower than the next ones
      // while its JIT compiles. Both measured runs come after one full warm-up run, so neither pays
      // for the engine's warm-up (measured first, the import used to).
      type Raw = { items: number; seconds: number };
      const warmUp = await measure<Raw>('raw', large, dynamoEndpoint, 'bench-warm-up');
      type Imported = { outcome: string; seconds: number; created: number; peakRssMb: number };
      const imported = await measure<Imported>(
        'import',
        large,
        dynamoEndpoint,
        s3Endpoint,
        'bench-import',
        LOCAL_IMPORTS_BUCKET,
        key,
      );
      const raw = await measure<Raw>('raw', large, dynamoEndpoint, 'bench-raw');

      const parseRate = parse.rows / parse.validateSeconds;
      const endToEnd = imported.created / imported.seconds;
      const rawRate = raw.items / raw.seconds;
      const ratio = endToEnd / rawRate;
      const peak = Math.max(parse.peakRssMb, imported.peakRssMb);
      const lines = formatTable(
        ['measure', 'figure', 'goal'],
        [
          ['file', `${summary.rows.toLocaleString('en-US')} rows, ${mb} MB`, ''],
          ['parse + validate (pass 1)', `${rate(parse.rows, parse.validateSeconds)} rows/s`, '>= 50,000 rows/s'],
          ['products, sanitized (pass 2)', `${rate(parse.rows, parse.productSeconds)} rows/s`, ''],
          ['peak memory, parse, 1/10 of the file', `${parseSmall.peakRssMb} MB`, `< ${MEMORY_GOAL_MB} MB`],
          ['peak memory, parse, whole file', `${parse.peakRssMb} MB`, `< ${MEMORY_GOAL_MB} MB`],
          [
            'end-to-end import into DynamoDB Local',
            `${rate(imported.created, imported.seconds)} rows/s (${imported.seconds.toFixed(1)} s, ${imported.outcome})`,
            '',
          ],
          ['peak memory, import', `${imported.peakRssMb} MB`, `< ${MEMORY_GOAL_MB} MB`],
          ['raw BatchWrite, same items, cold engine (warm-up)', `${rate(warmUp.items, warmUp.seconds)} items/s`, ''],
          ['raw BatchWrite, same items, 4 at a time', `${rate(raw.items, raw.seconds)} items/s`, ''],
          ['end-to-end / raw', `${Math.round(ratio * 100)} %`, '>= 80 %'],
        ],
        ['left', 'right', 'right'],
      );
      return {
        ok: parseRate >= 50_000 && ratio >= 0.8 && peak < MEMORY_GOAL_MB && imported.created === summary.rows,
        lines,
      };
    });
  },
};

export const catalogueLists: BenchSection = {
  name: 'lists',
  description: 'product list and unapproved list latency, 1 000 vs 100 000 products',
  async run() {
    return withEngines(async (dynamoEndpoint) => {
      const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
      const dynamo = new DynamoDBClient({ ...localAws, endpoint: dynamoEndpoint });
      type Lists = {
        count: number;
        approved: { medianMs: number; p95Ms: number };
        review: { medianMs: number; p95Ms: number };
      };
      const results: Lists[] = [];
      for (const count of [1_000, 100_000]) {
        const table = `bench-lists-${count}`;
        await ensureTable(dynamo, table);
        results.push(await measure<Lists>('lists', String(count), dynamoEndpoint, table));
      }
      const [few, many] = results as [Lists, Lists];
      const ratioApproved = many.approved.medianMs / few.approved.medianMs;
      const ratioReview = many.review.medianMs / few.review.medianMs;
      const ms = (value: number) => `${value.toFixed(1)} ms`;
      const lines = formatTable(
        ['call (first page, 24 products)', 'median, 1 000', 'median, 100 000', 'p95, 100 000', '100 000 / 1 000'],
        [
          [
            'getApprovedProducts',
            ms(few.approved.medianMs),
            ms(many.approved.medianMs),
            ms(many.approved.p95Ms),
            ratioApproved.toFixed(2),
          ],
          [
            'getUnApprovedProducts',
            ms(few.review.medianMs),
            ms(many.review.medianMs),
            ms(many.review.p95Ms),
            ratioReview.toFixed(2),
          ],
        ],
        ['left', 'right', 'right', 'right', 'right'],
      );
      lines.push(
        '',
        'Each call is the real handler (token check included) answering one Query page; goal: ratio <= 1.50.',
      );
      return { ok: ratioApproved <= 1.5 && ratioReview <= 1.5, lines };
    });
  },
};
