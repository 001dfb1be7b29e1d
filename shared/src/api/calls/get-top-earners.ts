import type { Call } from '../call';
import { ListRequest, TopEarnerPage } from '../sales';

/**
 * POST /api/getTopEarners (admin): One page of the members by commission earned.
 */
export const getTopEarners = {
  name: 'getTopEarners',
  path: '/api/getTopEarners',
  role: 'admin',
  body: 'json',
  request: ListRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const getTopEarnersResponse = TopEarnerPage;
