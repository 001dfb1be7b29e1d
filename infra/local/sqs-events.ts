import {
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  type Message,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { TemplateQueue } from './template';

/**
 * SQS → Lambda, locally: what Lambda's event source mapping does for a standard queue with
 * ReportBatchItemFailures. Pollers (one per unit of the function's concurrency) long-poll the
 * queue, hand each batch to the handler as an SQSEvent, and delete the messages it did not name in
 * `batchItemFailures`. A handler that throws, or answers an identifier that is not in the batch,
 * fails the whole batch: nothing is deleted, every message comes back after its visibility timeout,
 * and the queue's RedrivePolicy moves one received maxReceiveCount times to its dead-letter queue.
 */
export interface QueuePoller {
  /** Resolves when the queue holds no message, visible or in flight, and no batch is being handled. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export interface PollOptions {
  client: SQSClient;
  queueUrl: string;
  queueArn: string;
  handler: (event: SQSEvent) => Promise<SQSBatchResponse | void>;
  /** Messages per invocation (the mapping's BatchSize, at most 10 without a batching window). */
  batchSize?: number;
  /** Batches handled at the same time: the function's reserved concurrency. */
  concurrency?: number;
  /**
   * The mapping's FunctionResponseTypes has ReportBatchItemFailures (the default here): the messages
   * the handler names come back. Without it, a batch that does not throw is deleted whole.
   */
  reportBatchItemFailures?: boolean;
  /** How long one receive waits for messages (20 s in AWS; less locally so a stop is quick). */
  waitSeconds?: number;
  region?: string;
  log?: (line: string) => void;
}

export function toRecord(message: Message, queueArn: string, region: string): SQSRecord {
  const attributes = message.Attributes ?? {};
  return {
    messageId: message.MessageId ?? '',
    receiptHandle: message.ReceiptHandle ?? '',
    body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: attributes.ApproximateReceiveCount ?? '1',
      SentTimestamp: attributes.SentTimestamp ?? '',
      SenderId: attributes.SenderId ?? '',
      ApproximateFirstReceiveTimestamp: attributes.ApproximateFirstReceiveTimestamp ?? '',
    },
    messageAttributes: {},
    md5OfBody: message.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: region,
  };
}

export function pollQueue(options: PollOptions): QueuePoller {
  const { client, queueUrl, queueArn, handler } = options;
  const log = options.log ?? (() => undefined);
  const region = options.region ?? 'us-east-1';
  let stopped = false;
  let busy = 0;

  async function invoke(messages: Message[]): Promise<void> {
    const records = messages.map((message) => toRecord(message, queueArn, region));
    let failed: Set<string>;
    try {
      const response = await handler({ Records: records });
      const named = options.reportBatchItemFailures === false ? [] : (response?.batchItemFailures ?? []);
      failed = new Set(named.map((failure) => failure.itemIdentifier));
      const known = new Set(records.map((record) => record.messageId));
      // Lambda treats an identifier that is not in the batch (or an empty one) as a failed batch.
      if ([...failed].some((id) => !known.has(id))) failed = known;
    } catch (error) {
      log(`picture batch failed, every message is retried: ${error instanceof Error ? error.message : String(error)}`);
      failed = new Set(records.map((record) => record.messageId));
    }
    await deleteAll(records.filter((record) => !failed.has(record.messageId)));
  }

  async function deleteAll(done: readonly SQSRecord[]): Promise<void> {
    for (let start = 0; start < done.length; start += 10) {
      await client.send(
        new DeleteMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: done
            .slice(start, start + 10)
            .map((record, index) => ({ Id: String(index), ReceiptHandle: record.receiptHandle })),
        }),
      );
    }
  }

  async function poller(): Promise<void> {
    while (!stopped) {
      let messages: Message[] = [];
      try {
        const received = await client.send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: Math.min(options.batchSize ?? 10, 10),
            WaitTimeSeconds: options.waitSeconds ?? 1,
            MessageSystemAttributeNames: ['All'],
          }),
        );
        messages = received.Messages ?? [];
      } catch (error) {
        if (stopped) return;
        log(`the picture queue could not be read: ${error instanceof Error ? error.message : String(error)}`);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        continue;
      }
      if (messages.length === 0) continue;
      busy += 1;
      try {
        await invoke(messages);
      } catch (error) {
        log(`picture messages could not be deleted: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        busy -= 1;
      }
    }
  }

  const pollers = Array.from({ length: options.concurrency ?? 1 }, () => poller());

  return {
    async idle() {
      for (;;) {
        const { Attributes = {} } = await client.send(
          new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['All'] }),
        );
        const left =
          Number(Attributes.ApproximateNumberOfMessages) +
          Number(Attributes.ApproximateNumberOfMessagesNotVisible) +
          Number(Attributes.ApproximateNumberOfMessagesDelayed);
        if (left === 0 && busy === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async stop() {
      stopped = true;
      await Promise.all(pollers);
    },
  };
}

export interface LocalPictureQueue {
  url: string;
  arn: string;
  deadLetterUrl: string;
}

/**
 * The picture queue and its dead-letter queue as the stack makes them (infra/lib/portal-stack.ts):
 * the visibility timeout six times the picture function's timeout, the dead-letter queue after
 * `maxReceiveCount` receives. `prefix` keeps the test files' queues apart.
 */
export async function createPictureQueues(
  client: SQSClient,
  options: { prefix?: string; visibilitySeconds: number; maxReceiveCount: number },
): Promise<LocalPictureQueue> {
  const prefix = options.prefix ?? 'reseller-portal';
  const dead = await client.send(new CreateQueueCommand({ QueueName: `${prefix}-picture-dead-letters` }));
  const deadArn = await queueArn(client, dead.QueueUrl!);
  const queue = await client.send(
    new CreateQueueCommand({
      QueueName: `${prefix}-pictures`,
      Attributes: {
        VisibilityTimeout: String(options.visibilitySeconds),
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: deadArn, maxReceiveCount: options.maxReceiveCount }),
      },
    }),
  );
  return { url: queue.QueueUrl!, arn: await queueArn(client, queue.QueueUrl!), deadLetterUrl: dead.QueueUrl! };
}

/**
 * The portal stack's queues on the local SQS (template.ts templateQueues), as the stack sets them up:
 * each visibility timeout, each RedrivePolicy to its dead-letter queue. Named `<prefix>-<construct id>`;
 * answers each queue's URL and ARN by construct id (template.ts LocalValues.queues).
 */
export async function createTemplateQueues(
  client: SQSClient,
  queues: readonly TemplateQueue[],
  prefix = 'reseller-portal',
): Promise<Record<string, { url: string; arn: string }>> {
  const made: Record<string, { url: string; arn: string }> = {};
  for (const queue of queues) {
    const deadLetter = queue.deadLetter ? made[queue.deadLetter.queue] : undefined;
    if (queue.deadLetter && !deadLetter) throw new Error(`The dead-letter queue ${queue.deadLetter.queue} is not made`);
    const { QueueUrl } = await client.send(
      new CreateQueueCommand({
        QueueName: `${prefix}-${queue.name}`,
        Attributes: {
          VisibilityTimeout: String(queue.visibilitySeconds),
          ...(queue.deadLetter && deadLetter
            ? {
                RedrivePolicy: JSON.stringify({
                  deadLetterTargetArn: deadLetter.arn,
                  maxReceiveCount: queue.deadLetter.maxReceiveCount,
                }),
              }
            : {}),
        },
      }),
    );
    made[queue.name] = { url: QueueUrl!, arn: await queueArn(client, QueueUrl!) };
  }
  return made;
}

async function queueArn(client: SQSClient, url: string): Promise<string> {
  const { Attributes } = await client.send(
    new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }),
  );
  return Attributes!.QueueArn!;
}
