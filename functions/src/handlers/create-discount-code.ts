import { createDiscountCode } from '@portal/shared/api/calls/create-discount-code';
import { apiHandler, discountCodes } from '../composition';
import { createCode } from '../codes/codes';

/** Admin: makes a member's discount code under a Stripe coupon (codes/codes.ts createCode). */
export const handler = apiHandler(createDiscountCode, async ({ body }) => ({
  code: await createCode(discountCodes, body),
}));
