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

export function forwardObjectCreated(
  server: S3rver,
  handler: (event: S3Event) => Promise<void>,
  log: (line: string) => void = () => undefined,
  retryDelayMs = 1_000,
): EventForwarder {
  const running = new Set<Promise<void>>();

  const deliver = async (event: S3Event) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await handler(event);
        return;
      } catch (error) {
        const key = event.Records[0]?.s3.object.key;
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
    const records = event.Records.filter(
      (record) => record.eventName.startsWith('ObjectCreated') && record.s3.bucket.name === LOCAL_IMPORTS_BUCKET,
    );
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
