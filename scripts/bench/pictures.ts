import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { PurgeQueueCommand, SQSClient } from '@aws-sdk/client-sqs';
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { CSV_COLUMNS } from '../../shared/src/domain/csv-product';
import { ensureTable, localAws, startDynamo } from '../../infra/local/dynamo';
import { LOCAL_IMAGES_BUCKET, LOCAL_IMPORTS_BUCKET, startS3 } from '../../infra/local/s3';
import { startSqs } from '../../infra/local/sqs';
import { createPictureQueues } from '../../infra/local/sqs-events';
import { writeLargeCatalogueCsv } from '../../test/fixtures/csv/generate-large';
import { formatTable, median, type BenchSection } from './section';

/** Its tables without the stream: it measures no stream, and DynamoDB Local's writes slow down with each stream-enabled table (decision 0481). */
const NO_STREAM = { stream: false };

/**
 * Pictures through the queue (issue 38). The engines (DynamoDB Local, the S3 server, the local SQS)
 * and the picture servers run in this process; the import and the picture functions each run in a
 * process of their own (pictures-worker.ts), as they are separate Lambdas in AWS: the import's time
 * is not shared with the decoding and encoding of pictures.
 * - the import's own time for 1,000 and 20,000 products with 5 pictures each, with the picture
 *   queue and without it, alternated, median of the rounds (the ratio's goal: at most 1.1: the
 *   import does not wait for pictures); wall time and the import process's CPU time;
 * - the picture function behind the local event source mapping (PICTURE_CONCURRENCY pollers in one
 *   process), against a local picture server answering each picture after a chosen latency: fast,
 *   300 ms, and a share of slow hosts (answering after 12 s: past the 10 s budget per address):
 *   pictures per second, and per unit of concurrency;
 * - the 200,000-row import (about 100 MB) in a fresh process under a 256 MB function's heap
 *   limits: its time, its pass 1's, and its peak memory (BENCH_LARGE_IMPORT=0 skips it).
 * Every picture is distinct (its bytes differ), so each is decoded and encoded: none is stored once
 * for several addresses. Sizes: BENCH_IMPORT_SIZES (default 1000,20000), BENCH_IMPORT_ROUNDS
 * (default 3), BENCH_PICTURE_PRODUCTS (products hosted per case,
 * default 100: 500 pictures), BENCH_PICTURE_CONCURRENCY (default 4), BENCH_LARGE_ROWS (200000).
 */

const PRODUCTS_HOSTED = Number(process.env.BENCH_PICTURE_PRODUCTS ?? 100);
const IMPORT_SIZES = (process.env.BENCH_IMPORT_SIZES ?? '1000,20000').split(',').map(Number);
/** Rounds per size: a single 20,000-product pair measured 0.69 and 1.22 in two runs at a load average of 15 to 20. */
const IMPORT_ROUNDS = Number(process.env.BENCH_IMPORT_ROUNDS ?? 3);
const PICTURES_PER_PRODUCT = 5;
/** Instances of the picture function (its reserved concurrency is 10 in AWS; this machine has 2 cores). */
const PICTURE_CONCURRENCY = Number(process.env.BENCH_PICTURE_CONCURRENCY ?? 4);
const LARGE_IMPORT = process.env.BENCH_LARGE_IMPORT !== '0';
const LARGE_ROWS = Number(process.env.BENCH_LARGE_ROWS ?? 200_000);
/** The import function's timeout, less the reserve at which a part hands over (run-import.ts). */
const PART_BUDGET_SECONDS = 900 - 90;
/** The memory for an import. */
const MEMORY_BUDGET_MB = 256;
const SLOW_MS = 12_000;
/** Products whose first picture is on a slow host, in the mixed case. */
const SLOW_SHARE = 0.01;
const WORKER = join(import.meta.dirname, 'pictures-worker.ts');

const run = promisify(execFile);
const loadAverage = () =>
  loadavg()
    .map((load) => load.toFixed(2))
    .join(', ');

/** A picture server answering after `latencyMs`; each answer is a distinct PNG (a counter after its end). */
async function pictureServer(latencyMs: number, base: Buffer): Promise<{ origin: string; server: Server }> {
  let served = 0;
  const server = createServer((request, response) => {
    const body = Buffer.concat([base, Buffer.from(`${served++}:${request.url ?? ''}`)]);
    setTimeout(() => {
      response.writeHead(200, { 'content-type': 'image/png', 'content-length': String(body.length) });
      response.end(body);
    }, latencyMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** A CSV of `count` products with 5 pictures each, the picture addresses from `host(i, k)`. */
function catalogue(prefix: string, count: number, host: (i: number, k: number) => string): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (let i = 0; i < count; i++) {
    const pictures = Array.from({ length: 6 }, (_, k) =>
      k < PICTURES_PER_PRODUCT ? `${host(i, k)}/${prefix}/${i}/${k}.png` : '',
    );
    lines.push(
      [
        `Bench mug ${i}`,
        'Benchmark Co.',
        '24.99',
        '12.95',
        ...pictures,
        '',
        '<p>A mug.</p>',
        `https://supplier.bench.test/${prefix}/${i}`,
        `${prefix}-${i}`,
      ].join(','),
    );
  }
  return lines.join('\n') + '\n';
}

interface ImportResult {
  outcome: string;
  jobId: string;
  seconds: number;
  cpuSeconds: number;
  validateSeconds: number | null;
  created: number;
  pictures: number;
  peakRssMb: number;
}

interface HostResult {
  seconds: number;
  cpuSeconds: number;
  total: number;
  hosted: number;
  failed: number;
}

/** Runs pictures-worker.ts in a fresh process (with this process's tsx loader); answers its JSON line. */
async function worker<T>(args: readonly string[]): Promise<T> {
  // BENCH_CPU_PROFILE=<folder>: each worker writes a V8 CPU profile there (node --cpu-prof).
  const profile = process.env.BENCH_CPU_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE}`]
    : [];
  const { stdout } = await run(process.execPath, [...profile, ...process.execArgv, WORKER, ...args], {
    maxBuffer: 16 * 1024 * 1024,
    env: process.env,
  });
  return JSON.parse(stdout.trim().split('\n').pop()!) as T;
}

const seconds = (value: number) => `${value.toFixed(2)} s`;

export const picturesBench: BenchSection = {
  name: 'pictures',
  description: `pictures through the queue: the import's own time with and without them (${IMPORT_SIZES.map((n) => n.toLocaleString('en-US')).join(' and ')} products, 5 pictures each), ${PRODUCTS_HOSTED.toLocaleString('en-US')} products' pictures hosted by ${PICTURE_CONCURRENCY} picture functions at a chosen latency, and the ${LARGE_ROWS.toLocaleString('en-US')}-row import`,
  async run() {
    const loadBefore = loadAverage();
    const dir = mkdtempSync(join(tmpdir(), 'portal-bench-pictures-'));
    const [dynamo, s3, sqs] = await Promise.all([
      startDynamo(),
      startS3({ dataDir: join(dir, 's3'), spoolDir: join(dir, 's3-incoming') }),
      startSqs(),
    ]);
    const base = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#3a7bd5' } })
      .png()
      .toBuffer();
    const [fast, medium, slow] = await Promise.all([
      pictureServer(0, base),
      pictureServer(300, base),
      pictureServer(SLOW_MS, base),
    ]);
    const sqsClient = new SQSClient({ ...localAws, endpoint: sqs.endpoint });
    const queue = await createPictureQueues(sqsClient, { visibilitySeconds: 300, maxReceiveCount: 5 });
    const table = 'bench-pictures';
    Object.assign(process.env, {
      TABLE_NAME: table,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      S3_ENDPOINT: s3.endpoint,
      SQS_ENDPOINT: sqs.endpoint,
      IMPORTS_BUCKET: LOCAL_IMPORTS_BUCKET,
      IMAGES_BUCKET: LOCAL_IMAGES_BUCKET,
      PICTURE_QUEUE_URL: queue.url,
      PICTURE_FETCH_ALLOWED_ORIGINS: [fast.origin, medium.origin, slow.origin].join(','),
      // A slow address is tried again at once rather than after the 60 s and 300 s backoff.
      PICTURE_RETRY_DELAY_SECONDS: '0',
      AWS_REGION: localAws.region,
      AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
      POWERTOOLS_LOG_LEVEL: 'SILENT',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    });
    try {
      const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
      await ensureTable(new DynamoDBClient({ ...localAws, endpoint: dynamo.endpoint }), table, NO_STREAM);
      const s3Client = new S3Client({
        region: localAws.region,
        credentials: s3.credentials,
        endpoint: s3.endpoint,
        forcePathStyle: true,
        requestChecksumCalculation: 'WHEN_REQUIRED',
      });
      const upload = async (prefix: string, csv: string) => {
        const key = `imports/bench/${prefix}.csv`;
        await s3Client.send(new PutObjectCommand({ Bucket: LOCAL_IMPORTS_BUCKET, Key: key, Body: csv }));
        return key;
      };
      const importOf = async (key: string, withPictures: boolean) => {
        const result = await worker<ImportResult>([
          'import',
          LOCAL_IMPORTS_BUCKET,
          key,
          withPictures ? 'with' : 'without',
        ]);
        if (result.outcome !== 'completed') throw new Error(`the import of ${key} ended ${result.outcome}`);
        return result;
      };
      const purge = () => sqsClient.send(new PurgeQueueCommand({ QueueUrl: queue.url }));

      // The import's own time, with the picture queue and without it, alternated round by round
      // (the machine's load drifts); the messages are left in the queue, then purged: only the
      // import is timed here. A first small import warms DynamoDB Local.
      await importOf(
        await upload(
          'warm',
          catalogue('warm', 1_000, () => fast.origin),
        ),
        false,
      );
      const importRows: string[][] = [];
      let ratioOk = true;
      for (const count of IMPORT_SIZES) {
        const without: ImportResult[] = [];
        const withQueue: ImportResult[] = [];
        for (let round = 0; round < IMPORT_ROUNDS; round++) {
          const keyWithout = await upload(
            `n${count}r${round}`,
            catalogue(`n${count}r${round}`, count, () => fast.origin),
          );
          const keyWith = await upload(
            `w${count}r${round}`,
            catalogue(`w${count}r${round}`, count, () => fast.origin),
          );
          const order = round % 2 === 0 ? [false, true] : [true, false];
          for (const withPictures of order) {
            const result = await importOf(withPictures ? keyWith : keyWithout, withPictures);
            (withPictures ? withQueue : without).push(result);
            if (withPictures) {
              if (result.pictures !== count * PICTURES_PER_PRODUCT) {
                throw new Error(`the import counted ${result.pictures} pictures, not ${count * PICTURES_PER_PRODUCT}`);
              }
              await purge();
            }
          }
        }
        const wall = [median(without.map((r) => r.seconds)), median(withQueue.map((r) => r.seconds))] as const;
        const cpu = [median(without.map((r) => r.cpuSeconds)), median(withQueue.map((r) => r.cpuSeconds))] as const;
        const ratio = wall[1] / wall[0];
        ratioOk &&= ratio <= 1.1;
        console.error(
          `  ${count} products: import ${seconds(wall[0])} without, ${seconds(wall[1])} with pictures (ratio ${ratio.toFixed(2)}; CPU ${seconds(cpu[0])} / ${seconds(cpu[1])})`,
        );
        importRows.push([
          count.toLocaleString('en-US'),
          (count * PICTURES_PER_PRODUCT).toLocaleString('en-US'),
          String(without.length),
          seconds(wall[0]),
          seconds(wall[1]),
          ratio.toFixed(2),
          `${seconds(cpu[0])} / ${seconds(cpu[1])} (${(cpu[1] / cpu[0]).toFixed(2)})`,
          ratio <= 1.1 ? 'yes' : 'NO',
        ]);
      }

      // Hosting: each case imports its products with pictures, then the picture functions (their
      // own process) empty the queue.
      const cases: { name: string; host: (i: number, k: number) => string }[] = [
        { name: 'fast (0 ms)', host: () => fast.origin },
        { name: '300 ms per picture', host: () => medium.origin },
        {
          name: `fast, ${SLOW_SHARE * 100} % of products with a slow host (${SLOW_MS / 1000} s)`,
          host: (i, k) => (k === 0 && i % Math.round(1 / SLOW_SHARE) === 0 ? slow.origin : fast.origin),
        },
      ];
      const hostRows: string[][] = [];
      let index = 0;
      for (const hosting of cases) {
        const prefix = `h${index++}`;
        const imported = await importOf(await upload(prefix, catalogue(prefix, PRODUCTS_HOSTED, hosting.host)), true);
        const hosted = await worker<HostResult>(['host', imported.jobId, queue.arn, String(PICTURE_CONCURRENCY)]);
        const rate = hosted.hosted / hosted.seconds;
        console.error(
          `  ${hosting.name}: ${hosted.hosted} of ${hosted.total} hosted in ${hosted.seconds.toFixed(1)} s (${hosted.cpuSeconds.toFixed(1)} s CPU)`,
        );
        hostRows.push([
          hosting.name,
          `${hosted.hosted.toLocaleString('en-US')} / ${hosted.total.toLocaleString('en-US')}`,
          hosted.failed.toLocaleString('en-US'),
          seconds(imported.seconds),
          `${hosted.seconds.toFixed(1)} s`,
          rate.toFixed(1),
          (rate / PICTURE_CONCURRENCY).toFixed(1),
          `${((hosted.cpuSeconds / Math.max(hosted.hosted, 1)) * 1000).toFixed(0)} ms`,
        ]);
      }
      await purge();

      let large: string[][] = [[`${LARGE_ROWS.toLocaleString('en-US')}-row import`, 'skipped (BENCH_LARGE_IMPORT=0)']];
      let largeOk = true;
      if (LARGE_IMPORT) {
        const result = await largeImport(dir, dynamo.endpoint, s3Client);
        large = result.rows;
        largeOk = result.ok;
      }

      const lines = [
        ...formatTable(
          [
            'products',
            'pictures',
            'rounds',
            'import without pictures',
            'import with pictures',
            'ratio',
            'CPU without / with',
            '<= 1.1',
          ],
          importRows,
          ['right', 'right', 'right', 'right', 'right', 'right', 'right', 'left'],
        ),
        '',
        "The import and the picture functions each in a process of their own (separate Lambdas in AWS); the engines in the bench's. With the queue, a stored batch of 100 products costs one UpdateItem (the job's picture total) and one SendMessageBatch of 10 messages of 10 products, sent while the next batches are written. Median of the rounds, with and without alternated.",
        '',
        ...formatTable(
          [
            'picture server',
            'hosted / sent',
            'failed',
            'import',
            'hosting',
            'pictures/s',
            'per unit of concurrency',
            'CPU per picture',
          ],
          hostRows,
          ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'right'],
        ),
        '',
        `Hosting: ${PICTURE_CONCURRENCY} picture functions (pollers of the local event source mapping, in one process of their own, one message of 10 products an invocation), each 8 pictures at a time and 2 per host; 800 × 600 PNGs, each distinct, encoded to WebP at 320/640/1024 px; a slow address times out at 10 s and is tried again at once (3 tries) instead of after the backoff. The pictures are stored in the local S3 server, in the bench's process. CPU per picture: the picture functions' process only.`,
        '',
        ...formatTable(['measure', 'figure'], large, ['left', 'right']),
        '',
        `Load average (1, 5, 15 min): ${loadBefore} before, ${loadAverage()} after.`,
      ];
      return { ok: ratioOk && largeOk, lines };
    } finally {
      sqsClient.destroy();
      for (const { server } of [fast, medium, slow]) server.closeAllConnections();
      await Promise.all([fast, medium, slow].map(({ server }) => new Promise((resolve) => server.close(resolve))));
      await Promise.all([dynamo.stop(), s3.stop(), sqs.stop()]);
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

/**
 * The 200,000-row import in a fresh process, bundled (no loader in it), under a 256 MB function's
 * heap limits, so that its peak memory is its own. Without the picture queue: its 200,000 messages
 * would sit in this process's queue; what the queue adds is the ratio above.
 */
async function largeImport(
  dir: string,
  dynamoEndpoint: string,
  s3Client: S3Client,
): Promise<{ ok: boolean; rows: string[][] }> {
  const file = join(dir, 'large.csv');
  await writeLargeCatalogueCsv(file, LARGE_ROWS);
  const bytes = statSync(file).size;
  const key = 'imports/bench/large.csv';
  await s3Client.send(new PutObjectCommand({ Bucket: LOCAL_IMPORTS_BUCKET, Key: key, Body: readFileSync(file) }));
  rmSync(file);
  const table = 'bench-large-import';
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  await ensureTable(new DynamoDBClient({ ...localAws, endpoint: dynamoEndpoint }), table, NO_STREAM);
  const { build } = await import('esbuild');
  const outfile = join(dir, 'pictures-worker.cjs');
  await build({
    entryPoints: [WORKER],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node24',
    // Only the picture functions load it; the import does not.
    external: ['sharp'],
    logLevel: 'warning',
  });
  const { stdout } = await run(
    process.execPath,
    ['--max-semi-space-size=12', '--max-old-space-size=231', outfile, 'import', LOCAL_IMPORTS_BUCKET, key, 'without'],
    { maxBuffer: 16 * 1024 * 1024, env: { ...process.env, TABLE_NAME: table } },
  );
  const result = JSON.parse(stdout.trim().split('\n').pop()!) as ImportResult;
  const inTime = result.seconds <= PART_BUDGET_SECONDS;
  const inMemory = result.peakRssMb <= MEMORY_BUDGET_MB;
  console.error(
    `  ${LARGE_ROWS} rows: ${result.outcome} in ${result.seconds.toFixed(0)} s (pass 1 ${result.validateSeconds?.toFixed(0)} s), peak ${result.peakRssMb} MB`,
  );
  return {
    ok: result.outcome === 'completed' && inMemory,
    rows: [
      [
        `${LARGE_ROWS.toLocaleString('en-US')}-row import (${(bytes / 1024 / 1024).toFixed(1)} MB), one process, 256 MB heap limits`,
        `${result.outcome}, ${(result.created ?? 0).toLocaleString('en-US')} created`,
      ],
      ['whole import (wall)', `${result.seconds.toFixed(0)} s (${result.cpuSeconds.toFixed(0)} s CPU)`],
      ['pass 1 (validation), wall', `${(result.validateSeconds ?? 0).toFixed(0)} s`],
      [
        `in one part (${PART_BUDGET_SECONDS} s: 15 min less the 90 s reserve)`,
        inTime ? 'yes' : 'no: goes on in parts from a checkpoint',
      ],
      [`peak memory (RSS), at most ${MEMORY_BUDGET_MB} MB`, `${result.peakRssMb} MB${inMemory ? '' : ' (OVER)'}`],
    ],
  };
}
