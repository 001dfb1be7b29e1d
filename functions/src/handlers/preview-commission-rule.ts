import { previewCommissionRule } from '@portal/shared/api/calls/preview-commission-rule';
import { apiHandler, commissionRules } from '../composition';
import { previewRule } from '../rules/programme';

/** Admin: what a rule change would do, before it is saved (rules/programme.ts previewRule); reads only. */
export const handler = apiHandler(previewCommissionRule, async ({ body }) => previewRule(commissionRules, body));
