import { getRuleAudit } from '@portal/shared/api/calls/get-rule-audit';
import { apiHandler, commissionRules } from '../composition';
import { auditLog } from '../rules/programme';

/** Admin: the commission rules' audit log, newest first. */
export const handler = apiHandler(getRuleAudit, async ({ body }) => auditLog(commissionRules, body.cursor, body.limit));
