import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { productIntents } from '../../composition';
import { cancelStep, parseCancelWork } from '../../payments/open-intents';
import { loadLogger } from '../../config/logger';

/**
 * The checkout-cancel queue's messages (issue 38), a batch at a time as Lambda's SQS event source
 * mapping hands them over with ReportBatchItemFailures: each is one step of a banned or withdrawn
 * product's cancelling (a page of its open checkouts), which sends the next step itself. A step
 * that throws (the table or the queue did not answer) comes back after the visibility timeout and
 * reads the partition as it is then; one failing every receive goes to the dead-letter queue.
 */
const processor = new BatchProcessor(EventType.SQS);

export const handler = async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> => {
  const record = async (message: SQSRecord): Promise<void> => {
    await cancelStep(productIntents, parseCancelWork(message.body));
  };
  const response = await processPartialResponse(event, record, processor, context ? { context } : undefined);
  if (response.batchItemFailures.length > 0) {
    (await loadLogger()).warn('checkout-cancel messages to try again', { failed: response.batchItemFailures.length });
  }
  return response;
};
