import type { Call } from '../call';
import { CommissionPage, CommissionsByUserRequest } from '../sales';

/**
 * POST /api/getCommisionsByUser (member): A member's own commissions (another member's id is a
 * 404); an admin may name anyone. (The path keeps the spec's spelling.)
 */
export const getCommissionsByUser = {
  name: 'getCommisionsByUser',
  path: '/api/getCommisionsByUser',
  role: 'member',
  body: 'json',
  request: CommissionsByUserRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const getCommissionsByUserResponse = CommissionPage;
