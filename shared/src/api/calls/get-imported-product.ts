import type { Call } from '../call';
import { ImportedProduct } from '../products';
import { IdRequest } from '../schemas';

/**
 * POST /api/getImportedProduct (admin): A product under review: its imported values and how they
 * differ from the approved ones.
 */
export const getImportedProduct = {
  name: 'getImportedProduct',
  path: '/api/getImportedProduct',
  role: 'admin',
  body: 'json',
  request: IdRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const getImportedProductResponse = ImportedProduct;
