import { files, importContinuations, importJobs, importPictures, products } from '../../composition';
import type { Context, S3Event } from 'aws-lambda';
import { IMPORT_TIME_RESERVE_MS, runImport } from '../../imports/run-import';
import { loadLogger } from '../../config/logger';

/**
 * The imports bucket's ObjectCreated event. An error is thrown on, so Lambda's asynchronous
 * retries run the import again; the job claim makes a redelivered event import once. A file too
 * long for one invocation stops before its time runs out and goes on in the continuation
 * function (handlers/sqs/continue-import.ts) from a checkpoint.
 */
export const handler = async (event: S3Event, context?: Pick<Context, 'getRemainingTimeInMillis'>): Promise<void> => {
  // Waiting for another import's catalogue write lease leaves the run enough time to import.
  const waitBudgetMs = context ? () => context.getRemainingTimeInMillis() - IMPORT_TIME_RESERVE_MS : undefined;
  const remainingMs = context ? () => context.getRemainingTimeInMillis() : undefined;
  for (const record of event.Records) {
    // Object keys arrive URL-encoded, with spaces as '+'.
    const key = decodeURIComponent(record.s3.object.key.replace(/\+/g, ' '));
    const source = { bucket: record.s3.bucket.name, key, eTag: record.s3.object.eTag };
    let outcome;
    try {
      outcome = await runImport(
        {
          jobs: importJobs,
          products: products,
          files: files,
          waitBudgetMs,
          remainingMs,
          continuations: importContinuations(),
          pictures: importPictures(),
        },
        source,
      );
    } catch (error) {
      // The job says so in words; the detail (an SDK message, a stack) is for the log only.
      (await loadLogger()).error('import failed; the event is retried', { key, error });
      throw error;
    }
    (await loadLogger()).info('import finished', { key, outcome });
  }
};
