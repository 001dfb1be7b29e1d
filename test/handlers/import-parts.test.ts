import { DeleteMessageCommand, ReceiveMessageCommand, SQSClient, type Message } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { CSV_COLUMNS, productIdFromSpuNo } from '../../shared/src/domain/csv-product';
import { dynamoImports } from '../../functions/src/adapters/imports/dynamo-imports';
import { handler as importProducts } from '../../functions/src/handlers/s3/import-products';
import { handler as continueImport } from '../../functions/src/handlers/sqs/continue-import';
import { handler as getImportJob } from '../../functions/src/handlers/get-import-job';
import { CHECKPOINT_RESERVE_MS, decodeRows, encodeRows } from '../../functions/src/imports/run-import';
import { localAws } from '../../infra/local/dynamo';
import { createTemplateQueues } from '../../infra/local/sqs-events';
import { templateQueues } from '../../infra/local/template';
import { auth, objectCreatedEvent, tokenFor, uploadHeld } from './catalogue-helpers';
import { allItems, asFunction, call } from './helpers';

/**
 * A file too long for one invocation (issue 38): the import stops before its time runs out, stores
 * a checkpoint on the job with a conditional write and sends its next part to the import queue;
 * each part reads the file from the checkpoint's byte (a Range) and goes on. Here every invocation
 * says it has less time left than the checkpoint's reserve, so each part writes one batch of 100.
 */
vi.setConfig({ testTimeout: 120_000 });

const sqs = new SQSClient({ ...localAws, endpoint: inject('sqsEndpoint') });
let queueUrl = '';
beforeAll(async () => {
  // The stack's import queue and its dead-letter queue, named as the test setup's functions expect (setup.ts).
  const wanted = templateQueues(inject('templates')).filter((q) => ['ImportQueue', 'FailedEvents'].includes(q.name));
  const queues = await createTemplateQueues(sqs, wanted, process.env.TABLE_NAME!);
  queueUrl = queues.ImportQueue!.url;
  process.env.IMPORT_QUEUE_URL = queueUrl;
});
afterAll(() => {
  delete process.env.IMPORT_QUEUE_URL;
  sqs.destroy();
});

/** An invocation with less time left than a part keeps for handing over: it stops after its first batch. */
const shortOfTime = { getRemainingTimeInMillis: () => CHECKPOINT_RESERVE_MS - 1 };

const header = CSV_COLUMNS.join(',');
const row = (spuNo: string, name: string) =>
  `${name},Brandly,24.99,12.95,,,,,,,,"<p>Hot,\nand ""tall"".</p>",https://supplier.example.test/${spuNo},${spuNo}`;

async function nextMessage(): Promise<Message | undefined> {
  const { Messages } = await sqs.send(
    new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 1, WaitTimeSeconds: 1 }),
  );
  return Messages?.[0];
}

const sqsEvent = (message: Message): SQSEvent => ({
  Records: [
    {
      messageId: message.MessageId!,
      receiptHandle: message.ReceiptHandle!,
      body: message.Body!,
      attributes: {
        ApproximateReceiveCount: '1',
        SentTimestamp: '0',
        SenderId: 'test',
        ApproximateFirstReceiveTimestamp: '0',
      },
      messageAttributes: {},
      md5OfBody: message.MD5OfBody!,
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:ImportQueue',
      awsRegion: 'us-east-1',
    },
  ],
});

describe('an import in several parts', () => {
  it('writes every product once, counts each row once, says it continued in 3 parts; a redelivered part does nothing', async () => {
    const stamp = Date.now().toString(36);
    const spus = Array.from({ length: 248 }, (_, i) => `PART-${stamp}-${i}`);
    // 250 rows: the product on line 302 comes again at the end (the last row wins): the second part skips
    // its first row from the checkpoint's replaced rows; a row with a bad price is rejected.
    const rows = [
      ...spus.map((spu, i) => row(spu, `Mug ${i}`)),
      `Bad,Brandly,x,12.95,,,,,,,,,https://supplier.example.test/bad,PART-${stamp}-bad`,
      row(spus[150]!, 'Mug 150 from the last row'),
    ];
    const admin = await tokenFor(true);
    const { jobId, key } = await uploadHeld(admin, 'long.csv', [header, ...rows].join('\r\n') + '\r\n');
    const event = await objectCreatedEvent(key);

    await asFunction('importProducts', () => importProducts(event, shortOfTime));
    const afterFirst = await dynamoImports.get(jobId);
    expect(afterFirst).toMatchObject({ status: 'running', parts: 2, rowsRead: 250, rejected: 1, created: 100 });
    expect(afterFirst!.checkpoint).toMatchObject({ part: 2, remaining: 148, from: { line: 202 } });
    // Each row spans two lines (its description holds a line break): the row on line 302, replaced by
    // the last one, lies after the checkpoint: the next part must skip it.
    expect(decodeRows(afterFirst!.checkpoint!.replaced)).toEqual([302]);

    const parts: string[] = [];
    for (let message = await nextMessage(); message; message = await nextMessage()) {
      parts.push(message.Body!);
      await asFunction('continueImport', () => continueImport(sqsEvent(message!), shortOfTime));
      // SQS delivers the same message again (its answer was lost): the part is claimed or done.
      const before = await dynamoImports.get(jobId);
      const again = await asFunction('continueImport', () => continueImport(sqsEvent(message!), shortOfTime));
      expect(again.batchItemFailures).toEqual([]);
      expect(await dynamoImports.get(jobId)).toEqual(before);
      await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle! }));
    }
    expect(parts.map((body) => JSON.parse(body) as { part: number }).map((m) => m.part)).toEqual([2, 3]);

    const job = await dynamoImports.get(jobId);
    expect(job).toMatchObject({
      status: 'completed',
      parts: 3,
      rowsRead: 250,
      rejected: 1,
      created: 248,
      updated: 0,
      unchanged: 0,
      rowsDone: 248,
      // The validation's, counted once by the first part.
      warnings: afterFirst!.warnings,
    });
    const wanted = new Set(spus.map((spu) => productIdFromSpuNo(spu)));
    const products = (await allItems()).filter((item) => item.entity === 'Product' && wanted.has(String(item.id)));
    // Each product once (one item per product id), the replaced one with its last row's values.
    expect(products).toHaveLength(248);
    const replaced = products.find((item) => item.id === productIdFromSpuNo(spus[150]!));
    expect(replaced?.current).toMatchObject({ product_name: 'Mug 150 from the last row' });
    const description = products.find((item) => item.id === productIdFromSpuNo(spus[200]!));
    expect(description?.current).toMatchObject({ product_name: 'Mug 200', spu_no: spus[200] });

    // The admin reads it in the job.
    const seen = await call(getImportJob, { body: { id: jobId }, headers: auth(admin) });
    expect(seen.body).toMatchObject({ status: 'completed', parts: 3, created: 248 });
    expect(seen.body).not.toHaveProperty('checkpoint');
  });
});

describe('the replaced rows a checkpoint carries', () => {
  it('round-trip through their compact form', () => {
    for (const rows of [[], [2], [2, 3, 4, 1000, 1001, 250_000]]) expect(decodeRows(encodeRows(rows))).toEqual(rows);
  });
});
