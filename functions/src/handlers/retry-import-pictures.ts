import { retryImportPictures } from '@portal/shared/api/calls/retry-import-pictures';
import { apiHandler, importJobs, pictureRetry } from '../composition';
import { DomainError } from '../errors';
import { IMPORT_NOT_FOUND } from '../imports/jobs';
import { retryFailedPictures, retrySentence } from '../pictures/picture-work';

export const handler = apiHandler(retryImportPictures, async ({ body }) => {
  const job = await importJobs.get(body.id);
  if (!job) throw new DomainError('not-found', IMPORT_NOT_FOUND);
  const products = await retryFailedPictures(pictureRetry, job.id);
  return { products, message: retrySentence(products) };
});
