import type { Call } from '../call';
import { ImportJobRequest, RejectedRowsCsv } from '../products';

/**
 * POST /api/getRejectedRowsCsv (admin): An import's rejected rows (and rows imported with a
 * warning) as a formula-safe CSV to fix and upload again. Pictures that could not be hosted are not
 * in it: they are hosted after the import, and shown on its picture progress with the retry.
 */
export const getRejectedRowsCsv = {
  name: 'getRejectedRowsCsv',
  path: '/api/getRejectedRowsCsv',
  role: 'admin',
  body: 'json',
  request: ImportJobRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const getRejectedRowsCsvResponse = RejectedRowsCsv;
