import type { S3Event } from 'aws-lambda';
import { dynamoImports } from '../../adapters/dynamo-imports';
import { dynamoProducts } from '../../adapters/dynamo-products';
import { s3Files } from '../../adapters/s3-files';
import { runImport } from '../../imports/run-import';
import { logger } from '../../config/logger';

/**
 * The imports bucket's ObjectCreated event. An error is thrown on, so Lambda's asynchronous
 * retries run the import again; the job claim makes a redelivered event import once.
 */
export const handler = async (event: S3Event): Promise<void> => {
  for (const record of event.Records) {
    // Object keys arrive URL-encoded, with spaces as '+'.
    const key = decodeURIComponent(record.s3.object.key.replace(/\+/g, ' '));
    const source = { bucket: record.s3.bucket.name, key, eTag: record.s3.object.eTag };
    const outcome = await runImport({ jobs: dynamoImports, products: dynamoProducts, files: s3Files }, source);
    logger.info('import finished', { key, outcome });
  }
};
