/**
 * One catalogue measurement in a fresh Node process, so that its peak memory (maxRSS) is its
 * own. Prints one JSON line. Run by scripts/bench/catalogue.ts; not meant to be run by hand.
 *
 *   csvparse <csv>                                 csv-parse alone, with the import's options
 *   parse  <csv>                                   pass 1 (validate) and pass 2 (products), no database
 *   import <csv> <dynamo> <s3> <table> <bucket> <key>   the real import of an object, into DynamoDB Local
 *   raw    <csv> <dynamo> <table>                   the same products written with plain BatchWrites
 *   lists  <count> <dynamo> <table>                 seeds <count> products, times the two list calls
 */
import { createReadStream } from 'node:fs';
import { benchProductContent } from './bench-product';
import { peakRssMb, runWorkerMode } from './worker';

const [mode, file, ...rest] = process.argv.slice(2);
const seconds = (start: number) => (performance.now() - start) / 1000;
/** CPU seconds (user + system) of this process since `start` (a process.cpuUsage()): steadier than wall time on a shared machine. */
const cpuSeconds = (start: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1e6;
};

/** Calls `write(start, end)` for each 25 of `count` items, four calls at a time (the import's window). */
async function fourBatchesAtATime(count: number, write: (start: number, end: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < count) {
        const start = next;
        next += 25;
        await write(start, Math.min(start + 25, count));
      }
    }),
  );
}

function configure(dynamo: string, table: string, s3?: string, bucket?: string) {
  Object.assign(process.env, {
    TABLE_NAME: table,
    DYNAMODB_ENDPOINT: dynamo,
    ...(s3 ? { S3_ENDPOINT: s3, IMPORTS_BUCKET: bucket } : {}),
    AWS_REGION: 'us-east-1',
    // The S3 server's key, from the bench that started it (DynamoDB Local takes any).
    AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID ?? 'local',
    AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY ?? 'local',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    POWERTOOLS_LOG_LEVEL: 'SILENT',
  });
}

/** csv-parse alone with the import's options, records taken in an on_record hook as the import takes them. */
async function csvParseAlone(): Promise<object> {
  const { parse: csvParse } = await import('csv-parse');
  const { CSV_PARSE_OPTIONS } = await import('../../functions/src/catalogue/csv-records');
  const { pipeline } = await import('node:stream/promises');
  let records = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  await pipeline(
    createReadStream(file!, { highWaterMark: 1 << 20 }),
    csvParse({
      ...CSV_PARSE_OPTIONS,
      on_record: () => {
        records += 1;
        return null;
      },
    }),
  );
  return { rows: records - 1, seconds: seconds(started), cpuSeconds: cpuSeconds(cpu), peakRssMb: peakRssMb() };
}

async function parse(): Promise<object> {
  const { validateCatalogueCsv, importCatalogueCsv } = await import('../../functions/src/catalogue/parse-csv');
  const started = performance.now();
  const cpu = process.cpuUsage();
  const validation = await validateCatalogueCsv(createReadStream(file!, { highWaterMark: 1 << 20 }));
  const validateSeconds = seconds(started);
  const validateCpuSeconds = cpuSeconds(cpu);
  const second = performance.now();
  const secondCpu = process.cpuUsage();
  let products = 0;
  for await (const batch of importCatalogueCsv(createReadStream(file!, { highWaterMark: 1 << 20 }), validation)) {
    products += batch.length;
  }
  return {
    rows: validation.report.rowsRead,
    products,
    validateSeconds,
    productSeconds: seconds(second),
    validateCpuSeconds,
    productCpuSeconds: cpuSeconds(secondCpu),
    seconds: seconds(started),
    peakRssMb: peakRssMb(),
  };
}

async function runImportMode(): Promise<object> {
  const [dynamo, s3, table, bucket, key] = rest;
  configure(dynamo!, table!, s3, bucket);
  const { runImport, jobIdFor } = await import('../../functions/src/imports/run-import');
  const { dynamoImports } = await import('../../functions/src/adapters/imports/dynamo-imports');
  const { dynamoProducts } = await import('../../functions/src/adapters/products/dynamo-products');
  const { s3Files } = await import('../../functions/src/adapters/imports/s3-files');
  const started = performance.now();
  const outcome = await runImport(
    { jobs: dynamoImports, products: dynamoProducts, files: s3Files },
    { bucket: bucket!, key: key! },
  );
  const elapsed = seconds(started);
  const job = await dynamoImports.get(jobIdFor({ bucket: bucket!, key: key! }));
  return { outcome, seconds: elapsed, created: job?.created, rowsRead: job?.rowsRead, peakRssMb: peakRssMb() };
}

async function raw(): Promise<object> {
  const [dynamo, table] = rest;
  configure(dynamo!, table!);
  const { parseCatalogueCsv } = await import('../../functions/src/catalogue/parse-csv');
  const { newProduct } = await import('../../functions/src/imports/upsert');
  const { productItem } = await import('../../functions/src/adapters/products/dynamo-products');
  const { batchWriteAll } = await import('../../functions/src/adapters/dynamo-client');
  // Prepared before the clock starts: this measures DynamoDB Local's write rate alone.
  const { products } = await parseCatalogueCsv(createReadStream(file!, { highWaterMark: 1 << 20 }));
  const now = new Date().toISOString();
  const records = products.map(({ product: { id, ...content } }) => newProduct(id, content, 'bench', now));
  const started = performance.now();
  // The best plain BatchWrite rate: 25 items per request, 4 requests at a time.
  await fourBatchesAtATime(records.length, (start, end) =>
    batchWriteAll(records.slice(start, end).map((record) => ({ PutRequest: { Item: productItem(record) } }))),
  );
  return { items: records.length, seconds: seconds(started) };
}

/** Latency of the two list calls, through the real handlers (auth included), with `count` products stored. */
async function lists(): Promise<object> {
  const count = Number(file);
  const [dynamo, table] = rest;
  configure(dynamo!, table!);
  process.env.TOKEN_SIGNING_KEY = 'bench-signing-key-bench-signing-key-0123456789';
  const { productItem } = await import('../../functions/src/adapters/products/dynamo-products');
  const { batchWriteAll } = await import('../../functions/src/adapters/dynamo-client');
  const { productIdFromSpuNo } = await import('../../shared/src/domain/csv-product');
  const { ensureAccount } = await import('../../infra/local/accounts');
  const { handler: login } = await import('../../functions/src/handlers/login');
  const { handler: approvedList } = await import('../../functions/src/handlers/get-approved-products');
  const { handler: reviewList } = await import('../../functions/src/handlers/get-unapproved-products');
  const { toApiEvent, lambdaContext } = await import('../../infra/local/api-event');

  // Each product is approved and has a newer version in review, so it is in both lists.
  const base = Date.parse('2026-01-01T00:00:00Z');
  await fourBatchesAtATime(count, (start, end) => {
    const batch = Array.from({ length: end - start }, (_, k) => {
      const i = start + k;
      const at = new Date(base + i * 1000).toISOString();
      const content = benchProductContent(i);
      const id = productIdFromSpuNo(content.spu_no);
      return {
        id,
        status: 'review' as const,
        current: content,
        approved: content,
        createdAt: at,
        updatedAt: at,
        approvedAt: at,
        lastJobId: 'bench',
      };
    });
    return batchWriteAll(batch.map((record) => ({ PutRequest: { Item: productItem(record) } })));
  });

  const email = 'bench-admin@example.com';
  await ensureAccount(email, 'bench admin password', true);
  const event = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    toApiEvent({
      method: 'POST',
      path,
      headers: { 'content-type': 'application/json', ...headers },
      body: Buffer.from(JSON.stringify(body)),
      sourceIp: '127.0.0.1',
    });
  const loggedIn = await login(
    event('/api/login', { email, password: 'bench admin password' }),
    lambdaContext('login', 10_000),
  );
  const token = (JSON.parse(String((loggedIn as { body: string }).body)) as { access_token: string }).access_token;
  const auth = { authorization: `Bearer ${token}` };

  const time = async (handler: typeof approvedList, path: string) => {
    const samples: number[] = [];
    for (let i = 0; i < 45; i++) {
      const started = performance.now();
      const result = (await handler(event(path, {}, auth), lambdaContext('list', 10_000))) as {
        statusCode: number;
        body: string;
      };
      if (result.statusCode !== 200) throw new Error(`${path} answered ${result.statusCode}: ${result.body}`);
      if (i >= 5) samples.push(performance.now() - started);
    }
    samples.sort((a, b) => a - b);
    return { medianMs: samples[Math.floor(samples.length / 2)]!, p95Ms: samples[Math.floor(samples.length * 0.95)]! };
  };
  return {
    count,
    approved: await time(approvedList, '/api/getApprovedProducts'),
    review: await time(reviewList, '/api/getUnApprovedProducts'),
  };
}

const modes: Record<string, () => Promise<object>> = {
  csvparse: csvParseAlone,
  parse,
  import: runImportMode,
  raw,
  lists,
};
runWorkerMode(modes, mode, 'catalogue-worker.ts parse|import|raw <csv> [...]', Boolean(file));
