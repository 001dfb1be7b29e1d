import type { Call } from '../call';
import { ChangeGroupRequest, Programme } from '../commission-rules';

/**
 * POST /api/changeMemberGroup (admin): creates a member group ("Top sellers"), adds a member to it by e-mail address or removes one; each with its audit entry. A group rule pays its members from their next sale.
 */
export const changeMemberGroup = {
  name: 'changeMemberGroup',
  path: '/api/changeMemberGroup',
  role: 'admin',
  body: 'json',
  request: ChangeGroupRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const changeMemberGroupResponse = Programme;
