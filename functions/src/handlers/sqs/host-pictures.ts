import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { pictureWork } from '../../composition';
import { hostPictureWork, parsePictureWork, retryDelaySeconds } from '../../pictures/picture-work';
import { loadLogger } from '../../config/logger';

/**
 * The picture queue's messages (issue 38), a batch at a time as Lambda's SQS event source mapping
 * hands them over with ReportBatchItemFailures: Powertools' batch processor runs the records side
 * by side and reports each failed one, so only it comes back. A picture that may pass later keeps
 * its message away for a while (the backoff), then it is tried again; a message that fails every
 * receive (a poison message) goes to the dead-letter queue after the queue's maxReceiveCount.
 */
const processor = new BatchProcessor(EventType.SQS);

export const handler = async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> => {
  // One host per invocation: its per-host limit and its memory of the addresses are this batch's.
  const deps = pictureWork.deps();
  const record = async (message: SQSRecord): Promise<void> => {
    const work = parsePictureWork(message.body);
    const attempt = Number(message.attributes.ApproximateReceiveCount) || 1;
    const outcome = await hostPictureWork(deps, work, attempt);
    if (outcome === 'retry') {
      await pictureWork.delay(message.receiptHandle, retryDelaySeconds(attempt)).catch(() => undefined);
      throw new Error(`Some pictures of product ${work.productId} may pass later (try ${attempt})`);
    }
  };
  const response = await processPartialResponse(event, record, processor, context ? { context } : undefined);
  if (response.batchItemFailures.length > 0) {
    (await loadLogger()).warn('picture messages to try again', { failed: response.batchItemFailures.length });
  }
  return response;
};
