import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { files, importContinuations, importJobs, importPictures, products } from '../../composition';
import { continueImport, parseContinuation } from '../../imports/run-import';
import { loadLogger } from '../../config/logger';

/**
 * The import's continuation queue (one message per part of a long import, batch size 1): the next
 * part goes on from the job's checkpoint, and may itself hand over to another part. A redelivered
 * message finds its part claimed or done and does nothing; a part that fails reports its message
 * as failed, so SQS delivers it again after the visibility timeout, and after the queue's
 * maxReceiveCount it goes to the failed-events queue (its alarm).
 */
export const handler = async (
  event: SQSEvent,
  context?: Pick<Context, 'getRemainingTimeInMillis'>,
): Promise<SQSBatchResponse> => {
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    const message = parseContinuation(record.body);
    if (!message) {
      // Not ours to run (it never will be): logged and let go rather than redelivered forever.
      (await loadLogger()).error('not an import continuation', { messageId: record.messageId });
      continue;
    }
    try {
      const outcome = await continueImport(
        {
          jobs: importJobs,
          products: products,
          files: files,
          remainingMs: context ? () => context.getRemainingTimeInMillis() : undefined,
          continuations: importContinuations(),
          pictures: importPictures(),
        },
        message,
      );
      (await loadLogger()).info('import part finished', { ...message, outcome });
    } catch (error) {
      (await loadLogger()).error('import part failed; the message is retried', { ...message, error });
      failures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures: failures };
};
