import type { Call } from '../call';
import { CommissionPage, ListRequest } from '../sales';

/**
 * POST /api/getCommisions (admin): One page of all commissions, newest first, with the list's
 * totals. (The path keeps the spec's spelling.)
 */
export const getCommissions = {
  name: 'getCommisions',
  path: '/api/getCommisions',
  role: 'admin',
  body: 'json',
  request: ListRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const getCommissionsResponse = CommissionPage;
