import { clock } from '../config/clock';
import { createProductUpload } from '@portal/shared/api/calls/create-product-upload';
import { MAX_PRESIGNED_UPLOAD_BYTES } from '@portal/shared/api/products';
import { apiHandler, files, importJobs } from '../composition';
import { assertCsvName, publicJob, queuedJob } from '../imports/jobs';

/** A presigned S3 POST for a large CSV (up to 100 MB); S3 enforces the size, and its event imports it. */
export const handler = apiHandler(createProductUpload, async ({ body }) => {
  assertCsvName(body.fileName);
  const job = queuedJob(body.fileName, files.bucket(), new Date(clock.now()).toISOString());
  await importJobs.create(job);
  const post = await files.presignedPost(job.key, MAX_PRESIGNED_UPLOAD_BYTES);
  return { job: publicJob(job), ...post };
});
