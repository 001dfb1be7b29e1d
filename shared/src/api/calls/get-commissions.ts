import type { Call } from '../call';
import { CommissionPage, CommissionsRequest } from '../sales';

/**
 * POST /api/getCommisions (admin): One page of all commissions, newest first, with the list's
 * totals; optionally only a member's (`member`: their e-mail) and/or those in one state
 * (`status`). (The path keeps the spec's spelling.)
 */
export const getCommissions = {
  name: 'getCommisions',
  path: '/api/getCommisions',
  role: 'admin',
  body: 'json',
  request: CommissionsRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const getCommissionsResponse = CommissionPage;
