import { SQSClient } from '@aws-sdk/client-sqs';
import { inject } from 'vitest';
import { handler as cancelCheckouts } from '../../functions/src/handlers/sqs/cancel-checkouts';
import { CHECKOUT_CANCEL_MAX_RECEIVES } from '../../functions/src/routes';
import { localAws } from '../../infra/local/dynamo';
import { createTemplateQueues, pollQueue, type QueuePoller } from '../../infra/local/sqs-events';
import { asFunction } from './helpers';

/**
 * The checkout-cancel queue and its dead-letter queue of this test file, on the local SQS, as the
 * stack makes them (issue 38); CHECKOUT_CANCEL_QUEUE_URL names it for the ban and the cancel
 * function. `start` runs the cancel function behind the local event source mapping, as its stack
 * entry does (batches of one, five at a time).
 */
export async function checkoutCancelQueue(options: { visibilitySeconds?: number } = {}) {
  const sqs = new SQSClient({ ...localAws, endpoint: inject('sqsEndpoint') });
  const made = await createTemplateQueues(
    sqs,
    [
      { name: 'CheckoutCancelDeadLetters', logicalId: 'CheckoutCancelDeadLetters', visibilitySeconds: 30 },
      {
        name: 'CheckoutCancelQueue',
        logicalId: 'CheckoutCancelQueue',
        visibilitySeconds: options.visibilitySeconds ?? 60,
        deadLetter: { queue: 'CheckoutCancelDeadLetters', maxReceiveCount: CHECKOUT_CANCEL_MAX_RECEIVES },
      },
    ],
    `cancels-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`,
  );
  const queue = made.CheckoutCancelQueue!;
  process.env.CHECKOUT_CANCEL_QUEUE_URL = queue.url;
  process.env.CHECKOUT_CANCEL_PASS_DELAY_SECONDS = '0';
  let poller: QueuePoller | undefined;
  return {
    sqs,
    url: queue.url,
    deadLetterUrl: made.CheckoutCancelDeadLetters!.url,
    start(concurrency = 5): QueuePoller {
      poller = pollQueue({
        client: sqs,
        queueUrl: queue.url,
        queueArn: queue.arn,
        handler: (event) => asFunction('cancelCheckouts', () => cancelCheckouts(event)),
        batchSize: 1,
        concurrency,
      });
      return poller;
    },
    async stop(): Promise<void> {
      await poller?.stop();
      poller = undefined;
    },
    async close(): Promise<void> {
      await poller?.stop();
      sqs.destroy();
    },
  };
}
