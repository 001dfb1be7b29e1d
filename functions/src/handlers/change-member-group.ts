import { changeMemberGroup } from '@portal/shared/api/calls/change-member-group';
import { apiHandler, commissionRules } from '../composition';
import { unauthorized } from '../errors';
import { changeGroup } from '../rules/programme';

/** Admin: creates a member group, or puts a member in it or out of it (rules/programme.ts changeGroup). */
export const handler = apiHandler(changeMemberGroup, async ({ body, user }) => {
  if (!user) throw unauthorized();
  return changeGroup(commissionRules, { id: user.id, email: user.email }, body);
});
