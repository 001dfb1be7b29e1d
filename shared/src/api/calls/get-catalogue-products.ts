import type { Call } from '../call';
import { CatalogueRequest, ImportedProductPage } from '../products';

/**
 * POST /api/getCatalogueProducts (admin): One page of the approved (what members see), banned or
 * withdrawn products, by name; `search` by SPU or the start of the name.
 */
export const getCatalogueProducts = {
  name: 'getCatalogueProducts',
  path: '/api/getCatalogueProducts',
  role: 'admin',
  body: 'json',
  request: CatalogueRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const getCatalogueProductsResponse = ImportedProductPage;
