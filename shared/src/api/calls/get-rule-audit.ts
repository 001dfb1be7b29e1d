import type { Call } from '../call';
import { RuleAuditRequest, RuleAuditPage } from '../commission-rules';

/**
 * POST /api/getRuleAudit (admin): the audit log of the commission rules and groups, newest first: who changed what, when, before and after.
 */
export const getRuleAudit = {
  name: 'getRuleAudit',
  path: '/api/getRuleAudit',
  role: 'admin',
  body: 'json',
  request: RuleAuditRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const getRuleAuditResponse = RuleAuditPage;
