import type { Call } from '../call';
import { BanRequest, ModerationResult } from '../products';

/**
 * POST /api/banProduct (admin): Bans a product: members stop seeing it, and imports never change
 * it again.
 */
export const banProduct = {
  name: 'banProduct',
  path: '/api/banProduct',
  role: 'admin',
  body: 'json',
  request: BanRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const banProductResponse = ModerationResult;
