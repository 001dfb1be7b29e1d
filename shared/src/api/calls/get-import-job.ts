import type { Call } from '../call';
import { ImportJob, ImportJobRequest } from '../products';

/**
 * POST /api/getImportJob (admin): An import's progress and result.
 */
export const getImportJob = {
  name: 'getImportJob',
  path: '/api/getImportJob',
  role: 'admin',
  body: 'json',
  request: ImportJobRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const getImportJobResponse = ImportJob;
