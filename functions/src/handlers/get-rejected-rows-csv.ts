import { apiHandler, importJobs } from '../composition';
import { DomainError } from '../errors';
import { toCsv } from '../imports/csv-export';
import { IMPORT_NOT_FOUND } from '../imports/jobs';

/** Pages of issues read per download: the stored report is capped (1 000 errors), so this ends. */
const PAGE = 500;

/** The rejected rows of an import as a CSV file: row, column and what is wrong, formula-safe. */
export const handler = apiHandler('getRejectedRowsCsv', async ({ body }) => {
  const job = await importJobs.get(body.id);
  if (!job) throw new DomainError('not-found', IMPORT_NOT_FOUND);
  const rows: (string | number | null)[][] = [];
  let cursor: string | undefined;
  do {
    const page = await importJobs.issues(body.id, cursor, PAGE);
    for (const issue of page.items) {
      if (issue.severity === 'error') rows.push([issue.row, issue.column, issue.message]);
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  const base = job.fileName.replace(/\.csv$/i, '');
  return {
    fileName: `${base}-rejected-rows.csv`,
    csv: toCsv(['row', 'column', 'problem'], rows),
    truncated: rows.length < job.rejected,
  };
});
