import { readdirSync, readFileSync, statSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateQueueCommand,
  DeleteQueueCommand,
  GetQueueAttributesCommand,
  ListQueuesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
} from '@aws-sdk/client-sqs';
import { afterAll, describe, expect, it } from 'vitest';
import { startSqs } from '../../infra/local/sqs';

/**
 * The local SQS keeps its queues across a restart of `npm start` (decision 0380): a file per queue
 * in the data folder, owner-only, written atomically. Through the SDK client, as the functions use it.
 */
const dir = mkdtempSync(join(tmpdir(), 'portal-sqs-restart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const counts = async (sqs: Awaited<ReturnType<typeof startSqs>>, url: string) => {
  const { Attributes = {} } = await sqs.client.send(
    new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['All'] }),
  );
  return {
    visible: Number(Attributes.ApproximateNumberOfMessages),
    inFlight: Number(Attributes.ApproximateNumberOfMessagesNotVisible),
  };
};

describe('the local SQS across a restart', () => {
  it('keeps its queues, their attributes and redrive, the waiting messages and those in flight', async () => {
    const data = join(dir, 'keeps');
    const first = await startSqs({ dataDir: data });
    const dead = await first.client.send(new CreateQueueCommand({ QueueName: 'work-dead' }));
    const work = await first.client.send(
      new CreateQueueCommand({
        QueueName: 'work',
        Attributes: {
          VisibilityTimeout: '1',
          RedrivePolicy: JSON.stringify({
            deadLetterTargetArn: 'arn:aws:sqs:us-east-1:000000000000:work-dead',
            maxReceiveCount: 3,
          }),
        },
      }),
    );
    const url = work.QueueUrl!;
    await first.client.send(
      new SendMessageBatchCommand({
        QueueUrl: url,
        Entries: Array.from({ length: 10 }, (_, index) => ({ Id: `m${index}`, MessageBody: `body ${index} ✓` })),
      }),
    );
    // Two in flight when the process stops: a consumer that died with them.
    const taken = await first.client.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 2 }));
    expect(taken.Messages).toHaveLength(2);
    expect(await counts(first, url)).toEqual({ visible: 8, inFlight: 2 });
    await first.stop();

    // Files of their own, owner-only, and no temporary file left.
    expect(readdirSync(data).sort()).toEqual(['work-dead.json', 'work.json']);
    for (const file of readdirSync(data)) expect(statSync(join(data, file)).mode & 0o777).toBe(0o600);
    expect(statSync(data).mode & 0o777).toBe(0o700);

    const second = await startSqs({ dataDir: data });
    try {
      // A URL of the last run (another port) still names the queue: the path is what counts.
      const again = second.queueUrl('work');
      expect(await counts(second, again)).toEqual({ visible: 8, inFlight: 2 });
      // Creating it again with the same attributes (start.ts does) answers the same queue.
      await second.client.send(
        new CreateQueueCommand({
          QueueName: 'work',
          Attributes: {
            VisibilityTimeout: '1',
            RedrivePolicy: JSON.stringify({
              deadLetterTargetArn: 'arn:aws:sqs:us-east-1:000000000000:work-dead',
              maxReceiveCount: 3,
            }),
          },
        }),
      );
      // The two in flight come back once their visibility ends, with their receive counted.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const bodies: string[] = [];
      const receives: number[] = [];
      for (let round = 0; round < 5 && bodies.length < 10; round++) {
        const got = await second.client.send(
          new ReceiveMessageCommand({
            QueueUrl: again,
            MaxNumberOfMessages: 10,
            VisibilityTimeout: 30,
            MessageSystemAttributeNames: ['ApproximateReceiveCount'],
          }),
        );
        for (const message of got.Messages ?? []) {
          bodies.push(message.Body!);
          receives.push(Number(message.Attributes!.ApproximateReceiveCount));
        }
      }
      expect(bodies.sort()).toEqual(Array.from({ length: 10 }, (_, index) => `body ${index} ✓`).sort());
      expect(receives.filter((count) => count === 2)).toHaveLength(2);
      expect(dead.QueueUrl).toBeDefined();
    } finally {
      await second.stop();
    }
  });

  it('writes a change within a moment, not only at stop; a deleted queue’s file goes; an unreadable file is set aside', async () => {
    const data = join(dir, 'writes');
    const sqs = await startSqs({ dataDir: data });
    try {
      const { QueueUrl } = await sqs.client.send(new CreateQueueCommand({ QueueName: 'soon' }));
      await sqs.client.send(new SendMessageCommand({ QueueUrl: QueueUrl!, MessageBody: 'kept' }));
      await new Promise((resolve) => setTimeout(resolve, 500));
      const stored = JSON.parse(readFileSync(join(data, 'soon.json'), 'utf8')) as { messages: { body: string }[] };
      expect(stored.messages.map((message) => message.body)).toEqual(['kept']);
    } finally {
      await sqs.stop();
    }
    writeFileSync(join(data, 'broken.json'), '{ not json', { mode: 0o600 });
    const after = await startSqs({ dataDir: data });
    try {
      expect(readdirSync(data).sort()).toEqual(['broken.json.unreadable', 'soon.json']);
      const { QueueUrls } = await after.client.send(new ListQueuesCommand({}));
      expect(QueueUrls).toEqual([after.queueUrl('soon')]);
      await after.client.send(new DeleteQueueCommand({ QueueUrl: after.queueUrl('soon') }));
    } finally {
      await after.stop();
    }
    expect(readdirSync(data)).toEqual(['broken.json.unreadable']);
  });
});
