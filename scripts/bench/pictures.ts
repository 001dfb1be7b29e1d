import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
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
import { createPictureQueues, pollQueue } from '../../infra/local/sqs-events';
import { writeLargeCatalogueCsv } from '../../test/fixtures/csv/generate-large';
import { formatTable, type BenchSection } from './section';

/**
 * Pictures through the queue (issue 38), on the local engines in this process:
 * - the import's own time for 1,000 and 20,000 products with 5 pictures each, with the picture
 *   queue and without it (the ratio's goal: at most 1.1: the import does not wait for pictures);
 * - the picture function behind the local event source mapping (PICTURE_CONCURRENCY instances),
 *   against a local picture server answering each picture after a chosen latency: fast, 300 ms,
 *   and a share of slow hosts (answering after 12 s: past the 10 s budget per address): pictures
 *   per second, and per unit of concurrency;
 * - the 200,000-row import (about 100 MB) end to end in a fresh process: its time and peak memory
 *   (BENCH_LARGE_IMPORT=0 skips it).
 * Every picture is distinct (its bytes differ), so each is decoded and encoded: none is stored once
 * for several addresses. BENCH_PICTURE_PRODUCTS (default 1,000) sets the products hosted per case.
 */

const PRODUCTS_HOSTED = Number(process.env.BENCH_PICTURE_PRODUCTS ?? 1_000);
const IMPORT_SIZES = [1_000, 20_000];
const PICTURES_PER_PRODUCT = 5;
/** Instances of the picture function (its reserved concurrency is 10 in AWS; this machine has 2 cores). */
const PICTURE_CONCURRENCY = Number(process.env.BENCH_PICTURE_CONCURRENCY ?? 4);
const LARGE_IMPORT = process.env.BENCH_LARGE_IMPORT !== '0';
const LARGE_ROWS = 200_000;
const SLOW_MS = 12_000;
/** Products whose first picture is on a slow host, in the mixed case. */
const SLOW_SHARE = 0.01;

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

export const picturesBench: BenchSection = {
  name: 'pictures',
  description: `pictures through the queue: the import's time with and without them (1,000 and 20,000 products, 5 pictures each), and ${PRODUCTS_HOSTED.toLocaleString('en-US')} products' pictures hosted by ${PICTURE_CONCURRENCY} picture functions at a chosen latency`,
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
      await ensureTable(new DynamoDBClient({ ...localAws, endpoint: dynamo.endpoint }), table);
      const { runImport, jobIdFor } = await import('../../functions/src/imports/run-import');
      const { files, importJobs, importPictures, products } = await import('../../functions/src/composition');
      const { handler: hostPictures } = await import('../../functions/src/handlers/sqs/host-pictures');
      const s3Client = new S3Client({
        region: localAws.region,
        credentials: s3.credentials,
        endpoint: s3.endpoint,
        forcePathStyle: true,
        requestChecksumCalculation: 'WHEN_REQUIRED',
      });
      const importOf = async (prefix: string, csv: string, withPictures: boolean) => {
        const key = `imports/bench/${prefix}.csv`;
        await s3Client.send(new PutObjectCommand({ Bucket: LOCAL_IMPORTS_BUCKET, Key: key, Body: csv }));
        const started = performance.now();
        const outcome = await runImport(
          { jobs: importJobs, products, files, pictures: withPictures ? importPictures() : undefined },
          { bucket: LOCAL_IMPORTS_BUCKET, key },
        );
        const seconds = (performance.now() - started) / 1000;
        if (outcome !== 'completed') throw new Error(`the import of ${prefix} ended ${outcome}`);
        return { seconds, jobId: jobIdFor({ bucket: LOCAL_IMPORTS_BUCKET, key }) };
      };
      /**
       * Hosts what the queue holds with PICTURE_CONCURRENCY picture functions; answers the time until
       * every picture of the job is hosted or failed (the queue's counts alone never went to zero in
       * the slow case of the first run: a message of a product already counted stayed in flight).
       */
      const hostAll = async (jobId: string) => {
        const started = performance.now();
        const poller = pollQueue({
          client: sqsClient,
          queueUrl: queue.url,
          queueArn: queue.arn,
          handler: (event) => hostPictures(event),
          batchSize: 10,
          concurrency: PICTURE_CONCURRENCY,
        });
        for (;;) {
          const pictures = (await importJobs.get(jobId))?.pictures;
          if (pictures && pictures.hosted + pictures.failed >= pictures.total) break;
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
        const seconds = (performance.now() - started) / 1000;
        await poller.stop();
        return seconds;
      };

      // The import's own time, with the picture queue and without it (its messages are left in the
      // queue, then purged: only the import is timed here). Without first, so the engines are warm.
      const importRows: string[][] = [];
      let ratioOk = true;
      for (const count of IMPORT_SIZES) {
        const csvWith = catalogue(`w${count}`, count, () => fast.origin);
        const csvWithout = catalogue(`n${count}`, count, () => fast.origin);
        await importOf(
          `warm${count}`,
          catalogue(`warm${count}`, Math.min(count, 1000), () => fast.origin),
          false,
        );
        const without = await importOf(`n${count}`, csvWithout, false);
        const withPictures = await importOf(`w${count}`, csvWith, true);
        const { PurgeQueueCommand } = await import('@aws-sdk/client-sqs');
        await sqsClient.send(new PurgeQueueCommand({ QueueUrl: queue.url }));
        const ratio = withPictures.seconds / without.seconds;
        ratioOk &&= ratio <= 1.1;
        console.error(
          `  ${count} products: import ${without.seconds.toFixed(2)} s without, ${withPictures.seconds.toFixed(2)} s with pictures`,
        );
        importRows.push([
          count.toLocaleString('en-US'),
          (count * PICTURES_PER_PRODUCT).toLocaleString('en-US'),
          `${without.seconds.toFixed(2)} s`,
          `${withPictures.seconds.toFixed(2)} s`,
          ratio.toFixed(2),
          ratio <= 1.1 ? 'yes' : 'NO',
        ]);
      }

      // Hosting: each case imports its products with pictures, then the picture functions empty the queue.
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
        const imported = await importOf(prefix, catalogue(prefix, PRODUCTS_HOSTED, hosting.host), true);
        const seconds = await hostAll(imported.jobId);
        const job = await importJobs.get(imported.jobId);
        const pictures = job?.pictures ?? { total: 0, hosted: 0, failed: 0 };
        const rate = pictures.hosted / seconds;
        console.error(`  ${hosting.name}: ${pictures.hosted} of ${pictures.total} hosted in ${seconds.toFixed(1)} s`);
        hostRows.push([
          hosting.name,
          `${pictures.hosted.toLocaleString('en-US')} / ${pictures.total.toLocaleString('en-US')}`,
          pictures.failed.toLocaleString('en-US'),
          `${imported.seconds.toFixed(2)} s`,
          `${seconds.toFixed(1)} s`,
          rate.toFixed(1),
          (rate / PICTURE_CONCURRENCY).toFixed(1),
        ]);
      }

      let large: string[] = ['200,000-row import (about 100 MB)', 'skipped (BENCH_LARGE_IMPORT=0)'];
      if (LARGE_IMPORT) large = await largeImport(dir, dynamo.endpoint, s3.endpoint, s3Client);

      const lines = [
        ...formatTable(
          ['products', 'pictures', 'import without pictures', 'import with pictures', 'ratio', '<= 1.1'],
          importRows,
          ['right', 'right', 'right', 'right', 'right', 'left'],
        ),
        '',
        ...formatTable(
          ['picture server', 'hosted / sent', 'failed', 'import', 'hosting', 'pictures/s', 'per unit of concurrency'],
          hostRows,
          ['left', 'right', 'right', 'right', 'right', 'right', 'right'],
        ),
        '',
        `Hosting: ${PICTURE_CONCURRENCY} picture functions (pollers of the local event source mapping, one process, batches of 10 products), each 8 pictures at a time and 2 per host; 800 × 600 PNGs, each distinct, encoded to WebP at 320/640/1024 px; a slow address times out at 10 s and is tried again at once (3 tries) instead of after the backoff.`,
        '',
        ...formatTable(['measure', 'figure'], [large], ['left', 'right']),
        '',
        `Load average (1, 5, 15 min): ${loadBefore} before, ${loadAverage()} after.`,
      ];
      return { ok: ratioOk, lines };
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
 * The 200,000-row import in a fresh process (the catalogue bench's worker, under a 256 MB
 * function's heap limits), so that its peak memory is its own.
 */
async function largeImport(dir: string, dynamoEndpoint: string, s3Endpoint: string, s3Client: S3Client) {
  const file = join(dir, 'large.csv');
  await writeLargeCatalogueCsv(file, LARGE_ROWS);
  const bytes = statSync(file).size;
  const key = 'imports/bench/large-200k.csv';
  await s3Client.send(new PutObjectCommand({ Bucket: LOCAL_IMPORTS_BUCKET, Key: key, Body: readFileSync(file) }));
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  await ensureTable(new DynamoDBClient({ ...localAws, endpoint: dynamoEndpoint }), 'bench-large-import');
  const { build } = await import('esbuild');
  const outfile = join(dir, 'catalogue-worker.cjs');
  await build({
    entryPoints: [join(import.meta.dirname, 'catalogue-worker.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node24',
    logLevel: 'warning',
  });
  const { stdout } = await run(
    process.execPath,
    [
      '--max-semi-space-size=12',
      '--max-old-space-size=231',
      outfile,
      'import',
      file,
      dynamoEndpoint,
      s3Endpoint,
      'bench-large-import',
      LOCAL_IMPORTS_BUCKET,
      key,
    ],
    { maxBuffer: 16 * 1024 * 1024, env: process.env },
  );
  const result = JSON.parse(stdout.trim().split('\n').pop()!) as {
    outcome: string;
    seconds: number;
    created: number;
    peakRssMb: number;
  };
  return [
    `200,000-row import (${(bytes / 1024 / 1024).toFixed(1)} MB), one part, 256 MB heap limits`,
    `${result.seconds.toFixed(0)} s, ${result.created.toLocaleString('en-US')} created (${result.outcome}), peak ${result.peakRssMb} MB`,
  ];
}
