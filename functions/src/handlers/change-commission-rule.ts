import { changeCommissionRule } from '@portal/shared/api/calls/change-commission-rule';
import { apiHandler, commissionRules } from '../composition';
import { unauthorized } from '../errors';
import { changeRule } from '../rules/programme';

/** Admin: creates, changes or deletes a commission rule, with its audit entry (rules/programme.ts changeRule). */
export const handler = apiHandler(changeCommissionRule, async ({ body, user }) => {
  if (!user) throw unauthorized();
  return changeRule(commissionRules, { id: user.id, email: user.email }, body);
});
