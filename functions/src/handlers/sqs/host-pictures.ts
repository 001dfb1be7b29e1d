import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { pictureWork } from '../../composition';
import { hostPictureWork, parsePictureWorks, retryDelaySeconds } from '../../pictures/picture-work';
import { loadLogger } from '../../config/logger';

/**
 * The picture queue's messages (issue 38), a batch at a time as Lambda's SQS event source mapping
 * hands them over with ReportBatchItemFailures (a message holds up to 10 product versions): Powertools' batch processor runs the records side
 * by side and reports each failed one, so only it comes back. A picture that may pass later keeps
 * its message away for a while (the backoff), then it is tried again; a message that fails every
 * receive (a poison message) goes to the dead-letter queue after the queue's maxReceiveCount.
 */
const processor = new BatchProcessor(EventType.SQS);

export const handler = async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> => {
  // One host per invocation: its per-host limit and its memory of the addresses are this batch's.
  const deps = pictureWork.deps();
  const record = async (message: SQSRecord): Promise<void> => {
    const works = parsePictureWorks(message.body);
    const attempt = Number(message.attributes.ApproximateReceiveCount) || 1;
    // The message's products side by side (the host's 8 slots are shared). Each is done once: when
    // the message comes back, those already complete find their record and fetch nothing.
    const outcomes = await Promise.allSettled(works.map((work) => hostPictureWork(deps, work, attempt)));
    const thrown = outcomes.find((outcome) => outcome.status === 'rejected');
    if (thrown) throw thrown.reason;
    const later = works.filter((_, index) => (outcomes[index] as PromiseFulfilledResult<string>).value === 'retry');
    if (later.length > 0) {
      await pictureWork.delay(message.receiptHandle, retryDelaySeconds(attempt)).catch(() => undefined);
      throw new Error(
        `Some pictures of product ${later.map((work) => work.productId).join(', ')} may pass later (try ${attempt})`,
      );
    }
  };
  const response = await processPartialResponse(event, record, processor, context ? { context } : undefined);
  if (response.batchItemFailures.length > 0) {
    (await loadLogger()).warn('picture messages to try again', { failed: response.batchItemFailures.length });
  }
  return response;
};
