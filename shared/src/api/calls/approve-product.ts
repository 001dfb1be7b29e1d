import type { Call } from '../call';
import { ApproveRequest, ModerationResult } from '../products';

/**
 * POST /api/approveProduct (admin): Approves the version the admin reviewed; a newer one is a 409.
 */
export const approveProduct = {
  name: 'approveProduct',
  path: '/api/approveProduct',
  role: 'admin',
  body: 'json',
  request: ApproveRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const approveProductResponse = ModerationResult;
