import { getCommissionsByUser } from '@portal/shared/api/calls/get-commissions-by-user';
import { commissionsOf } from '../commissions/reads';
import { apiHandler, commissionStore } from '../composition';
import { unauthorized } from '../errors';

/** A member's own commissions (another member's id is a 404); an admin may name anyone. */
export const handler = apiHandler(getCommissionsByUser, async ({ body, user }) => {
  if (!user) throw unauthorized();
  return commissionsOf(commissionStore, user, body.id, body.cursor, body.limit);
});
