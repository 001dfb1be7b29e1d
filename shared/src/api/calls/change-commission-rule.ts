import type { Call } from '../call';
import { ChangeRuleRequest, Programme } from '../commission-rules';

/**
 * POST /api/changeCommissionRule (admin): creates, changes or deletes a commission rule, conditional on the programme's version the admin saw (another admin's change between: a 409 in words), with its audit entry (who, when, before and after) in the same transaction. A changed rule applies to sales paid after it; recorded commissions keep the rule they were made with.
 */
export const changeCommissionRule = {
  name: 'changeCommissionRule',
  path: '/api/changeCommissionRule',
  role: 'admin',
  body: 'json',
  request: ChangeRuleRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const changeCommissionRuleResponse = Programme;
