import type { Call } from '../call';
import { ImportedProductPage, PageRequest } from '../products';

/**
 * POST /api/getUnApprovedProducts (admin): One page of the products waiting for review.
 */
export const getUnapprovedProducts = {
  name: 'getUnApprovedProducts',
  path: '/api/getUnApprovedProducts',
  role: 'admin',
  body: 'json',
  request: PageRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const getUnapprovedProductsResponse = ImportedProductPage;
