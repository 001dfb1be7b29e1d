import { dynamoImports } from '../adapters/dynamo-imports';
import { apiHandler } from '../lib/api-handler';
import { DomainError } from '../lib/errors';
import { IMPORT_NOT_FOUND } from '../lib/import/jobs';
import { rejectedRowsCsv } from '../lib/import/rejected-rows';

/**
 * The rows of an import that need fixing, as the file holds them (every supplier column, in the
 * file's order), plus the row's line and what is wrong; rows imported with warnings come too,
 * labelled as warnings. Formula-safe. The admin fixes the cells and uploads the file again.
 */
export const handler = apiHandler('getRejectedRowsCsv', async ({ body }) => {
  const job = await dynamoImports.get(body.id);
  if (!job) throw new DomainError('not-found', IMPORT_NOT_FOUND);
  const report = await dynamoImports.rejectedRows(body.id);
  if (!report) {
    throw new DomainError(
      'not-found',
      job.status === 'queued' || job.status === 'running'
        ? 'The import has not checked the file yet; download the rows when it has finished.'
        : 'This import kept no rows to download; upload the file again to get them.',
    );
  }
  const base = job.fileName.replace(/\.csv$/i, '');
  const rejected = report.rows.some((row) => row.severity === 'error');
  return {
    fileName: `${base}-${rejected ? 'rejected-rows' : 'rows-with-warnings'}.csv`,
    csv: rejectedRowsCsv(report),
    truncated: report.truncated,
  };
});
