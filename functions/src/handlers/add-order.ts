import { addOrder as addOrderCall } from '@portal/shared/api/calls/add-order';
import { apiHandler, sale } from '../composition';
import { addOrder } from '../orders/record-sale';
import { toCommission } from '../commissions/present';
import { toOrder } from '../orders/present';

/** An admin records a phone or e-mail sale: priced from the approved product, credited to the code's member. */
export const handler = apiHandler(addOrderCall, async ({ body }) => {
  const recorded = await addOrder(sale, body);
  return {
    order: toOrder(recorded.order),
    commission: recorded.commission ? toCommission(recorded.commission) : null,
  };
});
