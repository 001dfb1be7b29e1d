import type { Call } from '../call';
import { pure } from '../pure';
import * as z from '../zod';
import { CommissionResult } from '../sales';
import { Id } from '../schemas';

/** The admin's decision on a commission held at its sale: back to where it was, or no commission. */
export const ReviewDecision = /* @__PURE__ */ pure(() => z.enum(['release', 'cancel']));
export type ReviewDecision = z.infer<typeof ReviewDecision>;

export const ReviewHeldCommissionRequest = /* @__PURE__ */ pure(() =>
  z.strictObject({ id: Id, decision: ReviewDecision }),
);

/**
 * POST /api/reviewHeldCommission (admin): decides on a commission held for review at its sale (a
 * member bought through their own link, or the product was banned before the payment): `release`
 * puts it back where it was (waiting for fulfilment, or on hold / available), `cancel` ends it with
 * no commission. Conditional on the commission as read: a second admin's decision is a 409 in words.
 * A dispute's hold is decided by the dispute, not here.
 */
export const reviewHeldCommission = {
  name: 'reviewHeldCommission',
  path: '/api/reviewHeldCommission',
  role: 'admin',
  body: 'json',
  request: ReviewHeldCommissionRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const reviewHeldCommissionResponse = CommissionResult;
