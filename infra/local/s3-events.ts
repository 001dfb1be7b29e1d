import type { S3Event } from 'aws-lambda';
import type S3rver from 's3rver';
import { LOCAL_IMPORTS_BUCKET } from './s3';

/**
 * S3 → Lambda, locally: every ObjectCreated event of the S3 server is handed to the handler
 * the bucket notification invokes in AWS, asynchronously, with Lambda's two retries on error.
 */
export interface EventForwarder {
  /** Resolves when every event received so far has been handled (or has used up its retries). */
  idle(): Promise<void>;
}

const RETRIES = 2;

/** An object key as S3 writes it into an event: URL-encoded, with spaces as '+'. */
export const eventKey = (key: string): string => encodeURIComponent(key).replace(/%20/g, '+');

/** Which events a notification sends, as the bucket's notification configuration says (template.ts). */
export interface NotificationFilter {
  bucket: string;
  /** `s3:ObjectCreated:*` or a single kind (`s3:ObjectCreated:Put`). */
  events?: readonly string[];
  prefix?: string;
  suffix?: string;
}

/** Whether a record is one the notification sends: its bucket, an event it names, the key's prefix and suffix. */
export function matchesNotification(
  record: { eventName: string; s3: { bucket: { name: string }; object: { key: string } } },
  filter: NotificationFilter,
): boolean {
  const events = filter.events ?? ['s3:ObjectCreated:*'];
  const named = events.some((event) => {
    const wanted = event.replace(/^s3:/, '');
    return wanted.endsWith(':*') ? record.eventName.startsWith(wanted.slice(0, -1)) : record.eventName === wanted;
  });
  const key = record.s3.object.key;
  return (
    named &&
    record.s3.bucket.name === filter.bucket &&
    key.startsWith(filter.prefix ?? '') &&
    key.endsWith(filter.suffix ?? '')
  );
}

/**
 * `handler` gets each event of the notification `filter` describes (the imports bucket's ObjectCreated
 * unless told). npm start passes the import function's invocation (invoker.ts: its timeout, memory
 * and environment; an error or a timeout is retried as Lambda retries an asynchronous event).
 */
export function forwardObjectCreated(
  server: S3rver,
  handler: (event: S3Event) => Promise<unknown>,
  log: (line: string) => void = () => undefined,
  retryDelayMs = 1_000,
  filter: NotificationFilter = { bucket: LOCAL_IMPORTS_BUCKET },
): EventForwarder {
  const running = new Set<Promise<void>>();

  const deliver = async (event: S3Event) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await handler(event);
        return;
      } catch (error) {
        const encodedKey = event.Records[0]?.s3.object.key;
        const key = encodedKey === undefined ? undefined : decodeURIComponent(encodedKey.replace(/\+/g, ' '));
        log(
          `import of ${key} failed (try ${attempt + 1} of ${RETRIES + 1}): ${error instanceof Error ? error.message : String(error)}`,
        );
        if (attempt >= RETRIES) return;
        await new Promise((resolve) => setTimeout(resolve, retryDelayMs * (attempt + 1)));
      }
    }
  };

  (server as unknown as NodeJS.EventEmitter).on('event', (event: S3Event) => {
    // The notification is the imports bucket's only (as the stack sets it): the images bucket's
    // pictures (issue 28), written by the import itself, start nothing.
    const records = event.Records.filter((record) => matchesNotification(record, filter));
    if (records.length === 0) return;
    // s3rver sends keys raw; S3 sends them encoded.
    const encoded: S3Event = {
      Records: records.map((record) => ({
        ...record,
        s3: { ...record.s3, object: { ...record.s3.object, key: eventKey(record.s3.object.key) } },
      })),
    };
    const task = deliver(encoded).finally(() => running.delete(task));
    running.add(task);
  });

  return {
    async idle() {
      while (running.size > 0) await Promise.all([...running]);
    },
  };
}
