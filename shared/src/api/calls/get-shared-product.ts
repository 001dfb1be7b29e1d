import type { Call } from '../call';
import { SharedProduct, SharedProductRequest } from '../sales';

/**
 * POST /api/getSharedProduct (public): Public: the product a member's share link shows (404 "no
 * longer available" when banned or unknown).
 */
export const getSharedProduct = {
  name: 'getSharedProduct',
  path: '/api/getSharedProduct',
  role: 'public',
  body: 'json',
  request: SharedProductRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const getSharedProductResponse = SharedProduct;
