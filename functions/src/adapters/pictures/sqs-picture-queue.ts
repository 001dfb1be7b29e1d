import { ChangeMessageVisibilityCommand, SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { env } from '../../config/env';
import { WORKS_PER_MESSAGE, type PictureQueue } from '../../pictures/picture-work';

/**
 * The picture queue (issue 38): SQS in AWS, the local SQS under npm start and the tests
 * (infra/local/sqs.ts), through the same client. PICTURE_QUEUE_URL names it.
 */
let client: SQSClient | undefined;
function sqs(): SQSClient {
  const { SQS_ENDPOINT, AWS_REGION } = env();
  client ??= new SQSClient({ region: AWS_REGION, ...(SQS_ENDPOINT ? { endpoint: SQS_ENDPOINT } : {}) });
  return client;
}

export function pictureQueueUrl(): string {
  const url = env().PICTURE_QUEUE_URL;
  if (!url) throw new Error('Environment is incomplete: set PICTURE_QUEUE_URL');
  return url;
}

const BATCH = 10;
const SEND_TRIES = 4;

export const sqsPictureQueue: PictureQueue = {
  /**
   * A stored batch of 100 products: 10 messages of 10 product versions, in one SendMessageBatch
   * (larger sets, such as a retry's page, in several, sent at the same time).
   */
  async send(works) {
    const messages: string[] = [];
    for (let start = 0; start < works.length; start += WORKS_PER_MESSAGE) {
      messages.push(JSON.stringify(works.slice(start, start + WORKS_PER_MESSAGE)));
    }
    const requests: string[][] = [];
    for (let start = 0; start < messages.length; start += BATCH) requests.push(messages.slice(start, start + BATCH));
    await Promise.all(requests.map(sendBatch));
  },
};

async function sendBatch(bodies: readonly string[]): Promise<void> {
  let entries = bodies.map((body, index) => ({ Id: `w${index}`, MessageBody: body }));
  // SendMessageBatch answers entry by entry: the failed ones are sent again, a few times.
  for (let attempt = 1; entries.length > 0; attempt++) {
    const answer = await sqs().send(new SendMessageBatchCommand({ QueueUrl: pictureQueueUrl(), Entries: entries }));
    const failed = new Set((answer.Failed ?? []).map((entry) => entry.Id));
    entries = entries.filter((entry) => failed.has(entry.Id));
    if (entries.length > 0 && attempt >= SEND_TRIES) {
      throw new Error(`${entries.length} picture messages could not be sent: ${answer.Failed?.[0]?.Message ?? ''}`);
    }
  }
}

/** Keeps a message away for `seconds` before its redelivery: the backoff of a picture tried again. */
export async function delayMessage(receiptHandle: string, seconds: number): Promise<void> {
  await sqs().send(
    new ChangeMessageVisibilityCommand({
      QueueUrl: pictureQueueUrl(),
      ReceiptHandle: receiptHandle,
      VisibilityTimeout: seconds,
    }),
  );
}
