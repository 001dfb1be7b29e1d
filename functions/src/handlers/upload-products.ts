import { clock } from '../config/clock';
import { uploadProducts } from '@portal/shared/api/calls/upload-products';
import { MAX_DIRECT_UPLOAD_BYTES } from '@portal/shared/api/products';
import { apiHandler, files, importJobs, products } from '../composition';
import { assertCsvName, publicJob, queuedJob } from '../imports/jobs';
import { readSingleFile } from '../http/multipart';
import { DEFAULT_PAGE_SIZE, toImportedCard } from '../products/present';

/**
 * /api/products: stores the uploaded CSV in the imports bucket; the bucket's ObjectCreated event
 * runs the import (the same handler for every way a file arrives). Answers the job to follow
 * and the products in review now.
 */
export const handler = apiHandler(uploadProducts, async ({ event }) => {
  const file = await readSingleFile(
    event.rawBody ?? Buffer.alloc(0),
    event.headers['content-type'],
    MAX_DIRECT_UPLOAD_BYTES,
  );
  assertCsvName(file.fileName);
  const job = queuedJob(file.fileName, files.bucket(), new Date(clock.now()).toISOString());
  await importJobs.create(job);
  await files.put(job.key, file.data, 'text/csv');
  const page = await products.inReview(undefined, DEFAULT_PAGE_SIZE);
  return {
    job: publicJob(job),
    unApprovedProducts: { items: page.items.map(toImportedCard), nextCursor: page.nextCursor },
  };
});
