import type { Call } from '../call';
import { PageRequest, ProductPage } from '../products';

/**
 * POST /api/getApprovedProducts (member): One page of the member catalogue, at the approved
 * values, with 'You Make'.
 */
export const getApprovedProducts = {
  name: 'getApprovedProducts',
  path: '/api/getApprovedProducts',
  role: 'member',
  body: 'json',
  request: PageRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const getApprovedProductsResponse = ProductPage;
