import type { Call } from '../call';
import { ImportIssuesPage, ImportIssuesRequest } from '../products';

/**
 * POST /api/getImportIssues (admin): One page of an import's rejected rows and warnings.
 */
export const getImportIssues = {
  name: 'getImportIssues',
  path: '/api/getImportIssues',
  role: 'admin',
  body: 'json',
  request: ImportIssuesRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const getImportIssuesResponse = ImportIssuesPage;
