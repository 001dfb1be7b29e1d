import { getHeldCommissions } from '@portal/shared/api/calls/get-held-commissions';
import { apiHandler, commissionReview } from '../composition';
import { toCommission } from '../commissions/present';

/** Admin: the commissions held for review at their sale, newest first, one Query page (gsi4). */
export const handler = apiHandler(getHeldCommissions, async ({ body }) => {
  const page = await commissionReview.store.heldPage(body.cursor, body.limit ?? 20);
  return { items: page.items.map((item) => toCommission(item)), nextCursor: page.nextCursor };
});
