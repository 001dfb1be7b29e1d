import {
  ChangeMessageVisibilityCommand,
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSqs, type LocalSqs } from '../../infra/local/sqs';
import { pollQueue } from '../../infra/local/sqs-events';

/** The local SQS (decision 0380), through the SDK v3 client the functions use in AWS. */
let sqs: LocalSqs;
let client: SQSClient;
let named = 0;

beforeAll(async () => {
  sqs = await startSqs();
  client = sqs.client;
});
afterAll(() => sqs.stop());

async function queue(attributes: Record<string, string> = {}): Promise<{ url: string; arn: string }> {
  const { QueueUrl } = await client.send(new CreateQueueCommand({ QueueName: `q-${++named}`, Attributes: attributes }));
  const { Attributes } = await client.send(
    new GetQueueAttributesCommand({ QueueUrl: QueueUrl!, AttributeNames: ['QueueArn'] }),
  );
  return { url: QueueUrl!, arn: Attributes!.QueueArn! };
}

const receive = (url: string, extra: { VisibilityTimeout?: number; WaitTimeSeconds?: number; Max?: number } = {}) =>
  client
    .send(
      new ReceiveMessageCommand({
        QueueUrl: url,
        MaxNumberOfMessages: extra.Max ?? 10,
        VisibilityTimeout: extra.VisibilityTimeout,
        WaitTimeSeconds: extra.WaitTimeSeconds ?? 0,
        MessageSystemAttributeNames: ['All'],
      }),
    )
    .then((answer) => answer.Messages ?? []);

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let tries = 0; tries < 200; tries++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('never happened');
}

describe('the local SQS through the SDK client', () => {
  it('sends and receives with the body checksum the client verifies, and deletes with the receipt handle', async () => {
    const { url } = await queue();
    const sent = await client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: '{"héllo":"wörld"}' }));
    expect(sent.MessageId).toBeTruthy();
    const [message] = await receive(url);
    expect(message?.Body).toBe('{"héllo":"wörld"}');
    expect(message?.Attributes?.ApproximateReceiveCount).toBe('1');
    // Received, the message is invisible: a second receive finds nothing.
    expect(await receive(url)).toEqual([]);
    await client.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: message!.ReceiptHandle! }));
    await client
      .send(
        new ChangeMessageVisibilityCommand({
          QueueUrl: url,
          ReceiptHandle: message!.ReceiptHandle!,
          VisibilityTimeout: 0,
        }),
      )
      .catch((error: Error) => expect(error.message).toMatch(/receipt handle has expired/));
    expect(await receive(url)).toEqual([]);
  });

  it('delivers a message again after its visibility timeout, counting the receives; only the latest handle deletes it', async () => {
    const { url } = await queue({ VisibilityTimeout: '1' });
    await client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'again' }));
    const [first] = await receive(url);
    const [second] = await receive(url, { WaitTimeSeconds: 3 });
    expect(second?.MessageId).toBe(first?.MessageId);
    expect(second?.Attributes?.ApproximateReceiveCount).toBe('2');
    // The first receive's handle is stale: the call succeeds and the message stays.
    await client.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: first!.ReceiptHandle! }));
    await client.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: url,
        ReceiptHandle: second!.ReceiptHandle!,
        VisibilityTimeout: 0,
      }),
    );
    const [third] = await receive(url);
    expect(third?.Attributes?.ApproximateReceiveCount).toBe('3');
    await client.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: third!.ReceiptHandle! }));
    await client
      .send(
        new ChangeMessageVisibilityCommand({
          QueueUrl: url,
          ReceiptHandle: third!.ReceiptHandle!,
          VisibilityTimeout: 0,
        }),
      )
      .catch(() => undefined);
    expect(await receive(url)).toEqual([]);
  });

  it('moves a message received maxReceiveCount times to the dead-letter queue', async () => {
    const dlq = await queue();
    const { url } = await queue({
      RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlq.arn, maxReceiveCount: 2 }),
    });
    await client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'poison' }));
    expect(await receive(url, { VisibilityTimeout: 0 })).toHaveLength(1);
    expect(await receive(url, { VisibilityTimeout: 0 })).toHaveLength(1);
    // The third receive finds it received twice already: it goes to the dead-letter queue instead.
    expect(await receive(url, { VisibilityTimeout: 0 })).toEqual([]);
    const [dead] = await receive(dlq.url);
    expect(dead?.Body).toBe('poison');
  });

  it('answers a batch entry by entry, and refuses a batch that breaks SQS rules as a whole', async () => {
    const { url } = await queue();
    const batch = await client.send(
      new SendMessageBatchCommand({
        QueueUrl: url,
        Entries: [
          { Id: 'a', MessageBody: 'one' },
          { Id: 'b', MessageBody: 'bad \u0000 byte' },
          { Id: 'c', MessageBody: 'three' },
        ],
      }),
    );
    expect(batch.Successful?.map((entry) => entry.Id)).toEqual(['a', 'c']);
    expect(batch.Failed).toEqual([
      expect.objectContaining({ Id: 'b', Code: 'InvalidMessageContents', SenderFault: true }),
    ]);
    await expect(
      client.send(
        new SendMessageBatchCommand({
          QueueUrl: url,
          Entries: Array.from({ length: 11 }, (_, index) => ({ Id: `m${index}`, MessageBody: 'x' })),
        }),
      ),
    ).rejects.toMatchObject({ name: 'TooManyEntriesInBatchRequest' });
    await expect(
      client.send(
        new SendMessageBatchCommand({
          QueueUrl: url,
          Entries: [
            { Id: 'same', MessageBody: 'x' },
            { Id: 'same', MessageBody: 'y' },
          ],
        }),
      ),
    ).rejects.toMatchObject({ name: 'BatchEntryIdsNotDistinct' });
    const messages = await receive(url);
    expect(messages.map((message) => message.Body).sort()).toEqual(['one', 'three']);
    const deleted = await client.send(
      new DeleteMessageBatchCommand({
        QueueUrl: url,
        Entries: [
          ...messages.map((message, index) => ({ Id: `d${index}`, ReceiptHandle: message.ReceiptHandle! })),
          { Id: 'junk', ReceiptHandle: 'not-a-handle' },
        ],
      }),
    );
    expect(deleted.Successful).toHaveLength(2);
    expect(deleted.Failed).toEqual([expect.objectContaining({ Id: 'junk', Code: 'ReceiptHandleIsInvalid' })]);
  });

  it('long-polls: a receive that waits gets a message sent while it waits', async () => {
    const { url } = await queue();
    const waiting = receive(url, { WaitTimeSeconds: 10 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'late' }));
    expect((await waiting).map((message) => message.Body)).toEqual(['late']);
  });

  it('names errors as SQS does', async () => {
    await expect(client.send(new GetQueueUrlCommand({ QueueName: 'no-such-queue' }))).rejects.toMatchObject({
      name: 'QueueDoesNotExist',
    });
    await expect(
      client.send(new CreateQueueCommand({ QueueName: 'bad', Attributes: { VisibilityTimeout: '50000' } })),
    ).rejects.toMatchObject({ name: 'InvalidAttributeValue' });
    const { url } = await queue();
    await expect(
      client.send(
        new SendMessageCommand({
          QueueUrl: url,
          MessageBody: 'x',
          MessageAttributes: { a: { DataType: 'String', StringValue: 'b' } },
        }),
      ),
    ).rejects.toMatchObject({ name: 'UnsupportedOperation' });
    const raw = await fetch(sqs.endpoint, { method: 'POST', body: 'Action=ListQueues' });
    expect(raw.status).toBe(400);
  });
});

describe("the local event source mapping (Lambda's SQS poller)", () => {
  it('deletes what the handler did and delivers again the messages it reports failed', async () => {
    const { url, arn } = await queue({ VisibilityTimeout: '1' });
    await client.send(
      new SendMessageBatchCommand({
        QueueUrl: url,
        Entries: ['ok-1', 'fails-once', 'ok-2'].map((body, index) => ({ Id: `e${index}`, MessageBody: body })),
      }),
    );
    const seen: { body: string; count: string }[] = [];
    const poller = pollQueue({
      client,
      queueUrl: url,
      queueArn: arn,
      handler: async (event) => {
        const failures = [];
        for (const record of event.Records) {
          seen.push({ body: record.body, count: record.attributes.ApproximateReceiveCount });
          expect(record.eventSourceARN).toBe(arn);
          if (record.body === 'fails-once' && record.attributes.ApproximateReceiveCount === '1') {
            failures.push({ itemIdentifier: record.messageId });
          }
        }
        return { batchItemFailures: failures };
      },
    });
    await waitFor(
      async () => seen.length,
      (count) => count >= 4,
    );
    await poller.idle();
    await poller.stop();
    expect(seen.filter((entry) => entry.body === 'fails-once')).toEqual([
      { body: 'fails-once', count: '1' },
      { body: 'fails-once', count: '2' },
    ]);
    expect(seen.filter((entry) => entry.body.startsWith('ok'))).toHaveLength(2);
  });

  it('a handler that throws fails its whole batch, until the dead-letter queue takes the message', async () => {
    const dlq = await queue();
    const { url, arn } = await queue({
      VisibilityTimeout: '0',
      RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlq.arn, maxReceiveCount: 3 }),
    });
    await client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'always fails' }));
    let calls = 0;
    const poller = pollQueue({
      client,
      queueUrl: url,
      queueArn: arn,
      handler: async () => {
        calls += 1;
        throw new Error('boom');
      },
    });
    const dead = await waitFor(
      () => receive(dlq.url),
      (messages) => messages.length > 0,
    );
    await poller.stop();
    expect(dead[0]?.Body).toBe('always fails');
    expect(calls).toBe(3);
  });
});
