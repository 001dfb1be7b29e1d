import type { Call } from '../call';
import { pure } from '../pure';
import * as z from '../zod';
import { Commission, ListRequest } from '../sales';

export const HeldCommissionPage = /* @__PURE__ */ pure(() =>
  z.object({ items: z.array(Commission), nextCursor: z.nullable(z.string()) }),
);

/**
 * POST /api/getHeldCommissions (admin): the commissions held for review at their sale (a member
 * bought through their own link, or the product was banned before the payment), newest first, each
 * with why; the admin releases or cancels each (reviewHeldCommission).
 */
export const getHeldCommissions = {
  name: 'getHeldCommissions',
  path: '/api/getHeldCommissions',
  role: 'admin',
  body: 'json',
  request: ListRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const getHeldCommissionsResponse = HeldCommissionPage;
