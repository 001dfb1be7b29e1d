import type { Call } from '../call';
import { ProductDetail } from '../products';
import { IdRequest } from '../schemas';

/**
 * POST /api/getApprovedProduct (member): An approved product with its pictures and description.
 */
export const getApprovedProduct = {
  name: 'getApprovedProduct',
  path: '/api/getApprovedProduct',
  role: 'member',
  body: 'json',
  request: IdRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const getApprovedProductResponse = ProductDetail;
