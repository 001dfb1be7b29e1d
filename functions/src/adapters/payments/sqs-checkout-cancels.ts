import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { env } from '../../config/env';
import type { CancelQueue } from '../../payments/open-intents';

/**
 * The checkout-cancel queue (issue 38): SQS in AWS, the local SQS under npm start and the tests
 * (infra/local/sqs.ts), through the same client. CHECKOUT_CANCEL_QUEUE_URL names it.
 */
let client: SQSClient | undefined;
function sqs(): SQSClient {
  const { SQS_ENDPOINT, AWS_REGION } = env();
  client ??= new SQSClient({ region: AWS_REGION, ...(SQS_ENDPOINT ? { endpoint: SQS_ENDPOINT } : {}) });
  return client;
}

function queueUrl(): string {
  const url = env().CHECKOUT_CANCEL_QUEUE_URL;
  if (!url) throw new Error('Environment is incomplete: set CHECKOUT_CANCEL_QUEUE_URL');
  return url;
}

export const sqsCheckoutCancels: CancelQueue = {
  async send(work, delaySeconds) {
    await sqs().send(
      new SendMessageCommand({
        QueueUrl: queueUrl(),
        MessageBody: JSON.stringify(work),
        ...(delaySeconds ? { DelaySeconds: delaySeconds } : {}),
      }),
    );
  },
};
