import { getMyDiscountCodes } from '@portal/shared/api/calls/get-my-discount-codes';
import { apiHandler, discountCodeReads } from '../composition';
import { myCodes } from '../codes/codes';
import { unauthorized } from '../errors';

/** Member: their own discount codes (codes/codes.ts myCodes). */
export const handler = apiHandler(getMyDiscountCodes, async ({ user }) => {
  if (!user) throw unauthorized();
  return { items: await myCodes(discountCodeReads, user.id) };
});
