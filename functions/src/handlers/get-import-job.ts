import { clock } from '../config/clock';
import { getImportJob } from '@portal/shared/api/calls/get-import-job';
import { apiHandler, importJobs } from '../composition';
import { DomainError } from '../errors';
import { IMPORT_NOT_FOUND, jobAsSeen, publicJob } from '../imports/jobs';

export const handler = apiHandler(getImportJob, async ({ body }) => {
  const job = await importJobs.get(body.id);
  if (!job) throw new DomainError('not-found', IMPORT_NOT_FOUND);
  return publicJob(jobAsSeen(job, new Date(clock.now())));
});
