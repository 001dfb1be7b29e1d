import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
} from '@aws-sdk/client-sqs';
import { startSqs } from '../../infra/local/sqs';
import { formatTable, median, type BenchSection } from './section';

/**
 * The local SQS's throughput through the SDK v3 client (decision 0380): messages per second sent
 * in batches of 10, then received and deleted in batches of 10, in memory and kept in a data
 * folder (a file per queue, written atomically after changes). A figure, not a budget: the queues'
 * consumers (pictures, checkout cancels) handle a few messages a second each.
 */
const MESSAGES = 5_000;
const ROUNDS = 3;
const BODY = JSON.stringify({ productId: 'a'.repeat(40), pass: 1, left: 0, pictures: 5 });

async function once(dataDir: string | undefined): Promise<{ send: number; receive: number }> {
  const sqs = await startSqs(dataDir ? { dataDir } : {});
  try {
    const { QueueUrl } = await sqs.client.send(new CreateQueueCommand({ QueueName: 'bench' }));
    let started = performance.now();
    for (let sent = 0; sent < MESSAGES; sent += 10) {
      await sqs.client.send(
        new SendMessageBatchCommand({
          QueueUrl: QueueUrl!,
          Entries: Array.from({ length: 10 }, (_, index) => ({ Id: `m${index}`, MessageBody: BODY })),
        }),
      );
    }
    const send = MESSAGES / ((performance.now() - started) / 1000);
    started = performance.now();
    for (let done = 0; done < MESSAGES;) {
      const { Messages = [] } = await sqs.client.send(
        new ReceiveMessageCommand({ QueueUrl: QueueUrl!, MaxNumberOfMessages: 10 }),
      );
      if (Messages.length === 0) continue;
      await sqs.client.send(
        new DeleteMessageBatchCommand({
          QueueUrl: QueueUrl!,
          Entries: Messages.map((message, index) => ({ Id: String(index), ReceiptHandle: message.ReceiptHandle! })),
        }),
      );
      done += Messages.length;
    }
    return { send, receive: MESSAGES / ((performance.now() - started) / 1000) };
  } finally {
    await sqs.stop();
  }
}

export const localSqs: BenchSection = {
  name: 'sqs',
  description: 'the local SQS through the SDK client: messages per second, in memory and kept on disk',
  async run() {
    const rows: string[][] = [];
    for (const kept of [false, true]) {
      const sends: number[] = [];
      const receives: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const dir = kept ? mkdtempSync(join(tmpdir(), 'portal-bench-sqs-')) : undefined;
        try {
          const { send, receive } = await once(dir);
          sends.push(send);
          receives.push(receive);
        } finally {
          if (dir) rmSync(dir, { recursive: true, force: true });
        }
      }
      rows.push([
        kept ? 'kept in a data folder' : 'in memory',
        String(MESSAGES),
        `${median(sends).toFixed(0)}/s`,
        `${median(receives).toFixed(0)}/s`,
      ]);
    }
    return {
      ok: true,
      lines: formatTable(['queue', 'messages', 'sent (batches of 10)', 'received + deleted (batches of 10)'], rows, [
        'left',
        'right',
        'right',
        'right',
      ]),
    };
  },
};
