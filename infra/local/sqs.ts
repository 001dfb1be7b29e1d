import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SQSClient } from '@aws-sdk/client-sqs';
import { localAws } from './dynamo';
import { queueStore } from './sqs-store';

/**
 * A local SQS (decision 0380): the queue semantics the portal relies on, spoken in the protocol the
 * current SDK v3 client speaks (AWS JSON 1.0, `x-amz-target: AmazonSQS.<Operation>`), so the
 * functions use the same `@aws-sdk/client-sqs` as in AWS. No package on the npm registry answers
 * that protocol (sqslite answers SQS's older XML API, the npm `elasticmq` is a 2013 jar of it).
 *
 * Standard queues: a received message is invisible for the visibility timeout and delivered again
 * when it ends (ApproximateReceiveCount counts the receives); a message received maxReceiveCount
 * times and still not deleted goes to the RedrivePolicy's dead-letter queue at its next receive;
 * long polling (WaitTimeSeconds up to 20); send, delete and change-visibility in batches of 10 with
 * per-entry failures; only the latest receipt handle deletes a message (an older one succeeds and
 * deletes nothing, as SQS does). On 127.0.0.1 only; in memory, and with `dataDir` also kept there
 * across restarts (sqs-store.ts: a file per queue, 0600, written atomically); message attributes
 * and FIFO queues are refused in words rather than half done.
 */

export interface LocalSqs {
  endpoint: string;
  /** A client of the portal's kind pointed at it. */
  client: SQSClient;
  /** The queue URL of a queue name (the queue may not exist). */
  queueUrl(name: string): string;
  stop(): Promise<void>;
}

export const LOCAL_ACCOUNT = '000000000000';

/** SQS's limits (Amazon SQS quotas). */
const MAX_MESSAGE_BYTES = 1_048_576;
const MAX_BATCH_ENTRIES = 10;
const MAX_WAIT_SECONDS = 20;
const MAX_VISIBILITY_SECONDS = 43_200;

interface QueueAttributes {
  VisibilityTimeout: number;
  MessageRetentionPeriod: number;
  ReceiveMessageWaitTimeSeconds: number;
  DelaySeconds: number;
  MaximumMessageSize: number;
  RedrivePolicy?: { deadLetterTargetArn: string; maxReceiveCount: number };
}

interface Message {
  id: string;
  body: string;
  md5: string;
  sentAt: number;
  visibleAt: number;
  receiveCount: number;
  firstReceivedAt?: number;
  /** The latest receipt handle: only it deletes the message or changes its visibility. */
  handle?: string;
}

interface Queue {
  name: string;
  arn: string;
  createdAt: number;
  attributes: QueueAttributes;
  /** In send order; a standard queue's order is not promised, this one keeps it. */
  messages: Map<string, Message>;
  waiters: Set<() => void>;
}

/** The query-protocol codes SQS still sends (x-amzn-query-error) where they differ from the error's name. */
const QUERY_CODES: Readonly<Record<string, string>> = {
  BatchEntryIdsNotDistinct: 'AWS.SimpleQueueService.BatchEntryIdsNotDistinct',
  BatchRequestTooLong: 'AWS.SimpleQueueService.BatchRequestTooLong',
  EmptyBatchRequest: 'AWS.SimpleQueueService.EmptyBatchRequest',
  InvalidBatchEntryId: 'AWS.SimpleQueueService.InvalidBatchEntryId',
  MessageNotInflight: 'AWS.SimpleQueueService.MessageNotInflight',
  QueueDoesNotExist: 'AWS.SimpleQueueService.NonExistentQueue',
  QueueNameExists: 'QueueAlreadyExists',
  TooManyEntriesInBatchRequest: 'AWS.SimpleQueueService.TooManyEntriesInBatchRequest',
  UnsupportedOperation: 'AWS.SimpleQueueService.UnsupportedOperation',
};

class SqsError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly queryCode = QUERY_CODES[type] ?? type,
    readonly status = 400,
  ) {
    super(message);
  }
}

const queueMissing = () => new SqsError('QueueDoesNotExist', 'The specified queue does not exist.');
const invalidParameter = (message: string) => new SqsError('InvalidParameterValue', message);

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

/** The characters SQS accepts in a body: #x9 | #xA | #xD | #x20 to #xD7FF | #xE000 to #xFFFD | #x10000 to #x10FFFF. */
// eslint-disable-next-line no-control-regex
const INVALID_BODY = /[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
const NAME = /^[A-Za-z0-9_-]{1,80}$/;
const BATCH_ID = /^[A-Za-z0-9_-]{1,80}$/;

function integer(value: unknown, name: string, min: number, max: number): number {
  const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  if (!Number.isInteger(number) || number < min || number > max) {
    throw new SqsError(
      'InvalidAttributeValue',
      `Invalid value for the parameter ${name}: it must be an integer from ${min} to ${max}.`,
    );
  }
  return number;
}

function parseAttributes(input: Record<string, string>, base: QueueAttributes): QueueAttributes {
  const attributes = { ...base };
  for (const [name, value] of Object.entries(input)) {
    switch (name) {
      case 'VisibilityTimeout':
        attributes.VisibilityTimeout = integer(value, name, 0, MAX_VISIBILITY_SECONDS);
        break;
      case 'MessageRetentionPeriod':
        attributes.MessageRetentionPeriod = integer(value, name, 60, 1_209_600);
        break;
      case 'ReceiveMessageWaitTimeSeconds':
        attributes.ReceiveMessageWaitTimeSeconds = integer(value, name, 0, MAX_WAIT_SECONDS);
        break;
      case 'DelaySeconds':
        attributes.DelaySeconds = integer(value, name, 0, 900);
        break;
      case 'MaximumMessageSize':
        attributes.MaximumMessageSize = integer(value, name, 1024, MAX_MESSAGE_BYTES);
        break;
      case 'RedrivePolicy': {
        let policy: { deadLetterTargetArn?: unknown; maxReceiveCount?: unknown };
        try {
          policy = JSON.parse(value) as typeof policy;
        } catch {
          throw new SqsError('InvalidAttributeValue', 'Invalid value for the parameter RedrivePolicy: it is not JSON.');
        }
        if (typeof policy.deadLetterTargetArn !== 'string') {
          throw new SqsError(
            'InvalidAttributeValue',
            'Invalid value for the parameter RedrivePolicy. Reason: Redrive policy does not contain mandatory attribute: deadLetterTargetArn.',
          );
        }
        attributes.RedrivePolicy = {
          deadLetterTargetArn: policy.deadLetterTargetArn,
          maxReceiveCount: integer(policy.maxReceiveCount, 'RedrivePolicy.maxReceiveCount', 1, 1000),
        };
        break;
      }
      case 'SqsManagedSseEnabled':
      case 'Policy':
        break;
      case 'FifoQueue':
        throw new SqsError('UnsupportedOperation', 'FIFO queues are not supported by the local SQS (decision 0380).');
      default:
        throw new SqsError('InvalidAttributeName', `Unknown Attribute ${name}.`);
    }
  }
  return attributes;
}

const DEFAULT_ATTRIBUTES: QueueAttributes = {
  VisibilityTimeout: 30,
  MessageRetentionPeriod: 345_600,
  ReceiveMessageWaitTimeSeconds: 0,
  DelaySeconds: 0,
  MaximumMessageSize: MAX_MESSAGE_BYTES,
};

/** The operations that change no queue: no write follows them. */
const READ_ONLY = new Set(['GetQueueUrl', 'ListQueues', 'GetQueueAttributes']);

/** A queue as its file holds it (its waiters are this run's own). */
type StoredQueue = Omit<Queue, 'messages' | 'waiters'> & { messages: Message[] };

export async function startSqs(options: { region?: string; dataDir?: string } = {}): Promise<LocalSqs> {
  const region = options.region ?? localAws.region;
  const queues = new Map<string, Queue>();
  // The queues of the last run, messages in flight included: they come back when their visibility ends.
  const store = options.dataDir
    ? queueStore<StoredQueue>({
        dir: options.dataDir,
        snapshot: () =>
          new Map(
            [...queues.values()].map(({ waiters: _waiters, messages, ...queue }) => [
              queue.name,
              JSON.stringify({ ...queue, messages: [...messages.values()] } satisfies StoredQueue),
            ]),
          ),
      })
    : undefined;
  for (const { name, data } of store?.load() ?? []) {
    if (data.name !== name || !Array.isArray(data.messages)) continue;
    queues.set(name, {
      ...data,
      messages: new Map(data.messages.map((message) => [message.id, message])),
      waiters: new Set(),
    });
  }
  const pending = new Set<() => void>();
  let endpoint = '';
  let stopped = false;

  const arnOf = (name: string) => `arn:aws:sqs:${region}:${LOCAL_ACCOUNT}:${name}`;
  const urlOf = (name: string) => `${endpoint}/${LOCAL_ACCOUNT}/${name}`;

  function queueAt(url: unknown): Queue {
    if (typeof url !== 'string') throw invalidParameter('QueueUrl is required.');
    const name = url.split('/').pop() ?? '';
    const queue = queues.get(name);
    if (!queue || url.replace(/^https?:\/\/[^/]+/, '') !== `/${LOCAL_ACCOUNT}/${name}`) throw queueMissing();
    return queue;
  }

  const queueByArn = (arn: string) => [...queues.values()].find((queue) => queue.arn === arn);

  const wake = (queue: Queue) => {
    for (const waiter of queue.waiters) waiter();
    queue.waiters.clear();
  };

  function send(queue: Queue, body: unknown, delay: unknown, attributes: unknown): Message {
    if (attributes !== undefined && Object.keys(attributes as object).length > 0) {
      throw new SqsError(
        'UnsupportedOperation',
        'Message attributes are not supported by the local SQS (decision 0380).',
      );
    }
    if (typeof body !== 'string' || body.length === 0) {
      throw new SqsError('MissingParameter', 'The request must contain the parameter MessageBody.');
    }
    if (Buffer.byteLength(body) > queue.attributes.MaximumMessageSize) {
      throw invalidParameter(
        `One or more parameters are invalid. Reason: Message must be shorter than ${queue.attributes.MaximumMessageSize} bytes.`,
      );
    }
    if (INVALID_BODY.test(body)) {
      throw new SqsError(
        'InvalidMessageContents',
        'Invalid binary character in the message body: only #x9 | #xA | #xD | #x20 to #xD7FF | #xE000 to #xFFFD | #x10000 to #x10FFFF are allowed.',
      );
    }
    const delaySeconds = delay === undefined ? queue.attributes.DelaySeconds : integer(delay, 'DelaySeconds', 0, 900);
    const now = Date.now();
    const message: Message = {
      id: randomUUID(),
      body,
      md5: md5(body),
      sentAt: now,
      visibleAt: now + delaySeconds * 1000,
      receiveCount: 0,
    };
    queue.messages.set(message.id, message);
    wake(queue);
    return message;
  }

  /** The message a receipt handle names, and whether the handle is its latest; throws on a handle we never made. */
  function byHandle(queue: Queue, handle: unknown): { message?: Message; latest: boolean } {
    if (typeof handle !== 'string') throw new SqsError('ReceiptHandleIsInvalid', 'The receipt handle is missing.');
    let decoded: string[];
    try {
      decoded = Buffer.from(handle, 'base64url').toString('utf8').split(' ');
    } catch {
      decoded = [];
    }
    if (decoded.length !== 3 || decoded[0] !== queue.name) {
      throw new SqsError(
        'ReceiptHandleIsInvalid',
        `The input receipt handle "${handle}" is not a valid receipt handle.`,
      );
    }
    const message = queue.messages.get(decoded[1]!);
    return { message, latest: message?.handle === handle };
  }

  function drop(queue: Queue, handle: unknown): void {
    const { message, latest } = byHandle(queue, handle);
    if (message && latest) queue.messages.delete(message.id);
  }

  function changeVisibility(queue: Queue, handle: unknown, timeout: unknown): void {
    const seconds = integer(timeout, 'VisibilityTimeout', 0, MAX_VISIBILITY_SECONDS);
    const { message, latest } = byHandle(queue, handle);
    if (!message || !latest) {
      throw invalidParameter(
        `Value ${String(handle)} for parameter ReceiptHandle is invalid. Reason: The receipt handle has expired.`,
      );
    }
    const now = Date.now();
    if (message.visibleAt <= now) throw new SqsError('MessageNotInflight', 'The message is not in flight.');
    message.visibleAt = now + seconds * 1000;
    if (seconds === 0) wake(queue);
  }

  /** Takes up to `max` visible messages, moving to the dead-letter queue those received too often. */
  function take(queue: Queue, max: number, visibilitySeconds: number): Message[] {
    const now = Date.now();
    const taken: Message[] = [];
    for (const message of queue.messages.values()) {
      if (taken.length >= max) break;
      if (message.sentAt + queue.attributes.MessageRetentionPeriod * 1000 <= now) {
        queue.messages.delete(message.id);
        continue;
      }
      if (message.visibleAt > now) continue;
      const redrive = queue.attributes.RedrivePolicy;
      if (redrive && message.receiveCount >= redrive.maxReceiveCount) {
        const dlq = queueByArn(redrive.deadLetterTargetArn);
        if (dlq) {
          queue.messages.delete(message.id);
          // SQS keeps the message's id and sent time; it is visible in the dead-letter queue at once.
          dlq.messages.set(message.id, { ...message, visibleAt: now, receiveCount: 0, handle: undefined });
          wake(dlq);
          continue;
        }
      }
      message.receiveCount += 1;
      message.firstReceivedAt ??= now;
      message.visibleAt = now + visibilitySeconds * 1000;
      message.handle = Buffer.from(`${queue.name} ${message.id} ${randomBytes(12).toString('hex')}`).toString(
        'base64url',
      );
      taken.push(message);
    }
    return taken;
  }

  /** When the earliest invisible message becomes visible (for a long poll's timer). */
  const nextVisible = (queue: Queue) => {
    let next = Number.POSITIVE_INFINITY;
    for (const message of queue.messages.values()) next = Math.min(next, message.visibleAt);
    return next;
  };

  async function receive(input: Record<string, unknown>) {
    const queue = queueAt(input.QueueUrl);
    const max =
      input.MaxNumberOfMessages === undefined ? 1 : integer(input.MaxNumberOfMessages, 'MaxNumberOfMessages', 1, 10);
    const visibility =
      input.VisibilityTimeout === undefined
        ? queue.attributes.VisibilityTimeout
        : integer(input.VisibilityTimeout, 'VisibilityTimeout', 0, MAX_VISIBILITY_SECONDS);
    const wait =
      input.WaitTimeSeconds === undefined
        ? queue.attributes.ReceiveMessageWaitTimeSeconds
        : integer(input.WaitTimeSeconds, 'WaitTimeSeconds', 0, MAX_WAIT_SECONDS);
    const names = new Set([
      ...((input.AttributeNames as string[] | undefined) ?? []),
      ...((input.MessageSystemAttributeNames as string[] | undefined) ?? []),
    ]);
    const deadline = Date.now() + wait * 1000;
    let taken = take(queue, max, visibility);
    while (taken.length === 0 && Date.now() < deadline && !stopped) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          queue.waiters.delete(done);
          pending.delete(done);
          resolve();
        };
        const timer = setTimeout(done, Math.max(1, Math.min(deadline, nextVisible(queue)) - Date.now()));
        queue.waiters.add(done);
        pending.add(done);
      });
      if (queues.get(queue.name) !== queue) throw queueMissing();
      taken = take(queue, max, visibility);
    }
    const all = names.has('All');
    return {
      Messages: taken.map((message) => {
        const attributes: Record<string, string> = {
          ApproximateReceiveCount: String(message.receiveCount),
          SentTimestamp: String(message.sentAt),
          ApproximateFirstReceiveTimestamp: String(message.firstReceivedAt),
          SenderId: 'AIDALOCALSQS000000000',
        };
        const chosen = Object.fromEntries(Object.entries(attributes).filter(([name]) => all || names.has(name)));
        return {
          MessageId: message.id,
          ReceiptHandle: message.handle,
          MD5OfBody: message.md5,
          Body: message.body,
          ...(Object.keys(chosen).length > 0 ? { Attributes: chosen } : {}),
        };
      }),
    };
  }

  /** Runs one entry of a batch call; an entry's own error is its failure, not the call's. */
  function batch<T extends { Id?: unknown }>(entries: unknown, run: (entry: T) => Record<string, unknown>) {
    if (!Array.isArray(entries) || entries.length === 0) {
      throw new SqsError('EmptyBatchRequest', 'There should be at least one entry in the request.');
    }
    if (entries.length > MAX_BATCH_ENTRIES) {
      throw new SqsError(
        'TooManyEntriesInBatchRequest',
        `Maximum number of entries per request are ${MAX_BATCH_ENTRIES}.`,
      );
    }
    const ids = entries.map((entry: T) => entry.Id);
    for (const id of ids) {
      if (typeof id !== 'string' || !BATCH_ID.test(id)) {
        throw new SqsError(
          'InvalidBatchEntryId',
          'A batch entry id can only contain alphanumeric characters, hyphens and underscores. It can be at most 80 letters long.',
        );
      }
    }
    if (new Set(ids).size !== ids.length) {
      throw new SqsError('BatchEntryIdsNotDistinct', 'Two or more batch entries in the request have the same Id.');
    }
    const Successful: Record<string, unknown>[] = [];
    const Failed: Record<string, unknown>[] = [];
    for (const entry of entries as T[]) {
      try {
        Successful.push({ Id: entry.Id, ...run(entry) });
      } catch (error) {
        if (!(error instanceof SqsError)) throw error;
        Failed.push({ Id: entry.Id, SenderFault: true, Code: error.type, Message: error.message });
      }
    }
    return { Successful, Failed };
  }

  function queueAttributes(queue: Queue, asked: unknown) {
    const now = Date.now();
    let visible = 0;
    let inFlight = 0;
    let delayed = 0;
    for (const message of queue.messages.values()) {
      if (message.visibleAt <= now) visible += 1;
      else if (message.receiveCount > 0) inFlight += 1;
      else delayed += 1;
    }
    const { RedrivePolicy, ...plain } = queue.attributes;
    const all: Record<string, string> = {
      QueueArn: queue.arn,
      ApproximateNumberOfMessages: String(visible),
      ApproximateNumberOfMessagesNotVisible: String(inFlight),
      ApproximateNumberOfMessagesDelayed: String(delayed),
      CreatedTimestamp: String(Math.floor(queue.createdAt / 1000)),
      ...Object.fromEntries(Object.entries(plain).map(([name, value]) => [name, String(value)])),
      ...(RedrivePolicy ? { RedrivePolicy: JSON.stringify(RedrivePolicy) } : {}),
    };
    const names = Array.isArray(asked) ? (asked as string[]) : [];
    if (names.includes('All')) return { Attributes: all };
    for (const name of names) {
      if (!(name in all) && name !== 'RedrivePolicy')
        throw new SqsError('InvalidAttributeName', `Unknown Attribute ${name}.`);
    }
    return { Attributes: Object.fromEntries(Object.entries(all).filter(([name]) => names.includes(name))) };
  }

  const operations: Record<string, (input: Record<string, unknown>) => unknown> = {
    CreateQueue(input) {
      const name = input.QueueName;
      if (typeof name !== 'string' || !NAME.test(name)) {
        throw invalidParameter('Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length.');
      }
      if (name.endsWith('.fifo')) throw new SqsError('UnsupportedOperation', 'FIFO queues are not supported locally.');
      const attributes = parseAttributes(
        (input.Attributes as Record<string, string> | undefined) ?? {},
        DEFAULT_ATTRIBUTES,
      );
      const existing = queues.get(name);
      if (existing) {
        if (JSON.stringify(existing.attributes) !== JSON.stringify(attributes)) {
          throw new SqsError(
            'QueueNameExists',
            `A queue already exists with the same name and a different value for attribute(s).`,
            'QueueAlreadyExists',
          );
        }
      } else {
        queues.set(name, {
          name,
          arn: arnOf(name),
          createdAt: Date.now(),
          attributes,
          messages: new Map(),
          waiters: new Set(),
        });
      }
      return { QueueUrl: urlOf(name) };
    },
    GetQueueUrl(input) {
      const name = input.QueueName;
      if (typeof name !== 'string' || !queues.has(name)) throw queueMissing();
      return { QueueUrl: urlOf(name) };
    },
    ListQueues(input) {
      const prefix = typeof input.QueueNamePrefix === 'string' ? input.QueueNamePrefix : '';
      return { QueueUrls: [...queues.keys()].filter((name) => name.startsWith(prefix)).map(urlOf) };
    },
    DeleteQueue(input) {
      const queue = queueAt(input.QueueUrl);
      queues.delete(queue.name);
      wake(queue);
      return {};
    },
    PurgeQueue(input) {
      queueAt(input.QueueUrl).messages.clear();
      return {};
    },
    GetQueueAttributes(input) {
      return queueAttributes(queueAt(input.QueueUrl), input.AttributeNames);
    },
    SetQueueAttributes(input) {
      const queue = queueAt(input.QueueUrl);
      queue.attributes = parseAttributes(
        (input.Attributes as Record<string, string> | undefined) ?? {},
        queue.attributes,
      );
      return {};
    },
    SendMessage(input) {
      const message = send(queueAt(input.QueueUrl), input.MessageBody, input.DelaySeconds, input.MessageAttributes);
      return { MessageId: message.id, MD5OfMessageBody: message.md5 };
    },
    SendMessageBatch(input) {
      const queue = queueAt(input.QueueUrl);
      const entries = input.Entries as { MessageBody?: unknown }[] | undefined;
      const total = (entries ?? []).reduce(
        (sum, entry) => sum + (typeof entry.MessageBody === 'string' ? Buffer.byteLength(entry.MessageBody) : 0),
        0,
      );
      if (total > MAX_MESSAGE_BYTES) {
        throw new SqsError(
          'BatchRequestTooLong',
          `Batch requests cannot be longer than ${MAX_MESSAGE_BYTES} bytes. You have sent ${total} bytes.`,
        );
      }
      return batch<{ Id: string; MessageBody?: unknown; DelaySeconds?: unknown; MessageAttributes?: unknown }>(
        entries,
        (entry) => {
          const message = send(queue, entry.MessageBody, entry.DelaySeconds, entry.MessageAttributes);
          return { MessageId: message.id, MD5OfMessageBody: message.md5 };
        },
      );
    },
    ReceiveMessage: receive,
    DeleteMessage(input) {
      drop(queueAt(input.QueueUrl), input.ReceiptHandle);
      return {};
    },
    DeleteMessageBatch(input) {
      const queue = queueAt(input.QueueUrl);
      return batch<{ Id: string; ReceiptHandle?: unknown }>(input.Entries, (entry) => {
        drop(queue, entry.ReceiptHandle);
        return {};
      });
    },
    ChangeMessageVisibility(input) {
      changeVisibility(queueAt(input.QueueUrl), input.ReceiptHandle, input.VisibilityTimeout);
      return {};
    },
    ChangeMessageVisibilityBatch(input) {
      const queue = queueAt(input.QueueUrl);
      return batch<{ Id: string; ReceiptHandle?: unknown; VisibilityTimeout?: unknown }>(input.Entries, (entry) => {
        changeVisibility(queue, entry.ReceiptHandle, entry.VisibilityTimeout);
        return {};
      });
    },
  };

  const answer = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const text = JSON.stringify(body);
    response.writeHead(status, {
      'content-type': 'application/x-amz-json-1.0',
      'content-length': String(Buffer.byteLength(text)),
      'x-amzn-requestid': randomUUID(),
      ...headers,
    });
    response.end(text);
  };

  const fail = (response: ServerResponse, error: SqsError) =>
    answer(
      response,
      error.status,
      { __type: `com.amazonaws.sqs#${error.type}`, message: error.message },
      { 'x-amzn-query-error': `${error.queryCode};Sender` },
    );

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const target = request.headers['x-amz-target'];
    if (request.method !== 'POST' || typeof target !== 'string' || !target.startsWith('AmazonSQS.')) {
      return fail(
        response,
        new SqsError(
          'UnsupportedOperation',
          'The local SQS speaks AWS JSON 1.0 only (x-amz-target: AmazonSQS.<Operation>), as the SDK v3 client does.',
        ),
      );
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of request as AsyncIterable<Buffer>) {
      size += chunk.length;
      // Ten entries of the largest message, and room for the JSON around them.
      if (size > 2 * MAX_MESSAGE_BYTES) {
        return fail(
          response,
          new SqsError(
            'BatchRequestTooLong',
            'The request is too long.',
            'AWS.SimpleQueueService.BatchRequestTooLong',
            413,
          ),
        );
      }
      chunks.push(chunk);
    }
    let input: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      input = parsed as Record<string, unknown>;
    } catch {
      return fail(
        response,
        new SqsError('SerializationException', 'The request body is not a JSON object.', 'SerializationException'),
      );
    }
    const operation = operations[target.slice('AmazonSQS.'.length)];
    if (!operation) {
      return fail(response, new SqsError('UnsupportedOperation', `${target} is not supported by the local SQS.`));
    }
    try {
      answer(response, 200, await operation(input));
    } catch (error) {
      if (error instanceof SqsError) return fail(response, error);
      throw error;
    } finally {
      if (!READ_ONLY.has(target.slice('AmazonSQS.'.length))) store?.changed();
    }
  }

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      // No request can crash the engine: whatever went wrong is a 500 for that request only.
      if (!response.headersSent)
        answer(response, 500, { __type: 'com.amazonaws.sqs#InternalError', message: 'Internal error.' });
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new SQSClient({ endpoint, region, credentials: localAws.credentials });

  return {
    endpoint,
    client,
    queueUrl: urlOf,
    async stop() {
      stopped = true;
      for (const waiter of [...pending]) waiter();
      client.destroy();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await store?.flush();
    },
  };
}
