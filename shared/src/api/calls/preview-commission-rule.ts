import type { Call } from '../call';
import { ChangeRuleRequest, RulePreview } from '../commission-rules';

/**
 * POST /api/previewCommissionRule (admin): what a rule change would do before it is saved: how many approved products and members would see another You Make, and one example ("Desk Lamp Pro: You Make $2.42 → $3.63"). Reads only; the same body as changeCommissionRule.
 */
export const previewCommissionRule = {
  name: 'previewCommissionRule',
  path: '/api/previewCommissionRule',
  role: 'admin',
  body: 'json',
  request: ChangeRuleRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const previewCommissionRuleResponse = RulePreview;
