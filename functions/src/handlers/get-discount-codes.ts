import { getDiscountCodes } from '@portal/shared/api/calls/get-discount-codes';
import { apiHandler, discountCodeReads } from '../composition';
import { listCodes } from '../codes/codes';

/** Admin: every code with its uses, revenue and orders (codes/codes.ts listCodes). */
export const handler = apiHandler(getDiscountCodes, async () => ({ items: await listCodes(discountCodeReads) }));
