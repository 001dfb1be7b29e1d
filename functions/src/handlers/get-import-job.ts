import { dynamoImports } from '../adapters/dynamo-imports';
import { apiHandler } from '../lib/api-handler';
import { DomainError } from '../lib/errors';
import { IMPORT_NOT_FOUND, publicJob } from '../lib/import/jobs';

export const handler = apiHandler('getImportJob', async ({ body }) => {
  const job = await dynamoImports.get(body.id);
  if (!job) throw new DomainError('not-found', IMPORT_NOT_FOUND);
  return publicJob(job);
});
