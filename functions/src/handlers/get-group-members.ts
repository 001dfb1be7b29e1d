import { getGroupMembers } from '@portal/shared/api/calls/get-group-members';
import { apiHandler, commissionRules } from '../composition';
import { groupMembers } from '../rules/programme';

/** Admin: one page of a member group's members. */
export const handler = apiHandler(getGroupMembers, async ({ body }) =>
  groupMembers(commissionRules, body.groupId, body.cursor, body.limit),
);
