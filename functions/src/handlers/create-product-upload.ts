import { MAX_PRESIGNED_UPLOAD_BYTES } from '@portal/shared/api/products';
import { dynamoImports } from '../adapters/dynamo-imports';
import { s3Files } from '../adapters/s3-files';
import { apiHandler } from '../http/api-handler';
import { assertCsvName, publicJob, queuedJob } from '../imports/jobs';

/** A presigned S3 POST for a large CSV (up to 100 MB); S3 enforces the size, and its event imports it. */
export const handler = apiHandler('createProductUpload', async ({ body }) => {
  assertCsvName(body.fileName);
  const job = queuedJob(body.fileName, s3Files.bucket(), new Date().toISOString());
  await dynamoImports.create(job);
  const post = await s3Files.presignedPost(job.key, MAX_PRESIGNED_UPLOAD_BYTES);
  return { job: publicJob(job), ...post };
});
