import { getRejectedRowsCsv } from '@portal/shared/api/calls/get-rejected-rows-csv';
import { apiHandler, importJobs } from '../composition';
import { DomainError } from '../errors';
import { IMPORT_NOT_FOUND } from '../imports/jobs';
import { rejectedRowsCsv } from '../imports/rejected-rows';

/**
 * The rows of an import that need fixing, as the file holds them (every supplier column, in the
 * file's order), plus the row's line and what is wrong; rows imported with warnings come too,
 * labelled as warnings. Formula-safe. The admin fixes the cells and uploads the file again.
 * Pictures are not in it (issue 38): they are hosted after the import, and their failures are on
 * the import's picture progress, with the retry (retryImportPictures).
 */
export const handler = apiHandler(getRejectedRowsCsv, async ({ body }) => {
  const job = await importJobs.get(body.id);
  if (!job) throw new DomainError('not-found', IMPORT_NOT_FOUND);
  const report = await importJobs.rejectedRows(body.id);
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
