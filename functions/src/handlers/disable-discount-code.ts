import { disableDiscountCode } from '@portal/shared/api/calls/disable-discount-code';
import { apiHandler, discountCodes } from '../composition';
import { disableCode } from '../codes/codes';

/** Admin: turns a code off, at Stripe and for the checkout (codes/codes.ts disableCode). */
export const handler = apiHandler(disableDiscountCode, async ({ body }) => ({
  code: await disableCode(discountCodes, body.code),
}));
