import type { Call } from '../call';
import { GroupMembersRequest, GroupMemberPage } from '../commission-rules';

/**
 * POST /api/getGroupMembers (admin): one page of a member group's members, by member id.
 */
export const getGroupMembers = {
  name: 'getGroupMembers',
  path: '/api/getGroupMembers',
  role: 'admin',
  body: 'json',
  request: GroupMembersRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const getGroupMembersResponse = GroupMemberPage;
