/**
 * One side of the pictures bench in its own Node process, as in AWS, where the import and the
 * picture function are separate Lambdas and SQS, S3 and DynamoDB are services elsewhere: the
 * import's time is its own, not shared with the picture functions' decoding and encoding. The
 * engines and the picture servers stay in the bench's process. Prints one JSON line. Run by
 * scripts/bench/pictures.ts; not meant to be run by hand. The environment (table, endpoints,
 * buckets, PICTURE_QUEUE_URL) is the bench's.
 *
 *   import <bucket> <key> <with|without>   one import of an object, with the picture queue or without it
 *   host   <jobId> <queueArn> <concurrency> picture functions on the picture queue until the job's
 *                                          pictures are all hosted or failed
 */
import type { ImportJobRepository } from '../../functions/src/imports/job-store';
import { peakRssMb, runWorkerMode } from './worker';

const [mode, ...args] = process.argv.slice(2);
const cpuSeconds = (start: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1e6;
};

async function importMode(): Promise<object> {
  const [bucket, key, pictures] = args;
  const { runImport, jobIdFor } = await import('../../functions/src/imports/run-import');
  const { dynamoImports } = await import('../../functions/src/adapters/imports/dynamo-imports');
  const { dynamoProducts } = await import('../../functions/src/adapters/products/dynamo-products');
  const { s3Files } = await import('../../functions/src/adapters/imports/s3-files');
  const { sqsPictureQueue } = await import('../../functions/src/adapters/pictures/sqs-picture-queue');
  const { addPicturesToTotal } = await import('../../functions/src/adapters/pictures/dynamo-picture-records');
  // Pass 1 ends where the job first says `importing`: its time is that of validation (and state reads).
  let validatedAt: number | undefined;
  const jobs: ImportJobRepository = {
    ...dynamoImports,
    progress: (id, attempt, progress) => {
      if (progress.phase === 'importing') validatedAt ??= performance.now();
      return dynamoImports.progress(id, attempt, progress);
    },
  };
  const source = { bucket: bucket!, key: key! };
  const started = performance.now();
  const cpu = process.cpuUsage();
  const outcome = await runImport(
    {
      jobs,
      products: dynamoProducts,
      files: s3Files,
      pictures: pictures === 'with' ? { queue: sqsPictureQueue, addToTotal: addPicturesToTotal } : undefined,
    },
    source,
  );
  const seconds = (performance.now() - started) / 1000;
  const cpuUsed = cpuSeconds(cpu);
  const jobId = jobIdFor(source);
  const job = await dynamoImports.get(jobId);
  return {
    outcome,
    jobId,
    seconds,
    cpuSeconds: cpuUsed,
    validateSeconds: validatedAt === undefined ? null : (validatedAt - started) / 1000,
    created: job?.created,
    pictures: job?.pictures?.total ?? 0,
    peakRssMb: peakRssMb(),
  };
}

async function hostMode(): Promise<object> {
  const [jobId, queueArn, concurrency] = args;
  const { SQSClient } = await import('@aws-sdk/client-sqs');
  const { pollQueue } = await import('../../infra/local/sqs-events');
  const { dynamoImports } = await import('../../functions/src/adapters/imports/dynamo-imports');
  const { handler } = await import('../../functions/src/handlers/sqs/host-pictures');
  const client = new SQSClient({ region: process.env.AWS_REGION, endpoint: process.env.SQS_ENDPOINT });
  const started = performance.now();
  const cpu = process.cpuUsage();
  const poller = pollQueue({
    client,
    queueUrl: process.env.PICTURE_QUEUE_URL!,
    queueArn: queueArn!,
    handler: (event) => handler(event),
    // As the stack's event source mapping: one message (up to 10 products) an invocation.
    batchSize: 1,
    concurrency: Number(concurrency),
  });
  let pictures = { total: 0, hosted: 0, failed: 0 };
  for (;;) {
    pictures = (await dynamoImports.get(jobId!))?.pictures ?? pictures;
    if (pictures.total > 0 && pictures.hosted + pictures.failed >= pictures.total) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const seconds = (performance.now() - started) / 1000;
  const cpuUsed = cpuSeconds(cpu);
  await poller.stop();
  client.destroy();
  return { seconds, cpuSeconds: cpuUsed, ...pictures, peakRssMb: peakRssMb() };
}

const modes: Record<string, () => Promise<object>> = { import: importMode, host: hostMode };
runWorkerMode(
  modes,
  mode,
  'pictures-worker.ts import <bucket> <key> <with|without> | host <jobId> <queueArn> <concurrency>',
);
