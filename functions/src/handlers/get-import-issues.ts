import { getImportIssues } from '@portal/shared/api/calls/get-import-issues';
import { apiHandler, importJobs } from '../composition';
import { DomainError } from '../errors';
import { IMPORT_NOT_FOUND } from '../imports/jobs';

export const handler = apiHandler(getImportIssues, async ({ body }) => {
  const [job, page] = await Promise.all([importJobs.get(body.id), importJobs.issues(body.id, body.cursor, 100)]);
  if (!job) throw new DomainError('not-found', IMPORT_NOT_FOUND);
  return page;
});
