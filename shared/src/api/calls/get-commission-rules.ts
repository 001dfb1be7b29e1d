import type { Call } from '../call';
import { Programme } from '../commission-rules';
import { EmptyRequest } from '../schemas';

/**
 * POST /api/getCommissionRules (admin): the commission rules (issue 39; docs/programme.md): every rule with its rate in words, the member groups with their counts, and the programme's version, which a change names.
 */
export const getCommissionRules = {
  name: 'getCommissionRules',
  path: '/api/getCommissionRules',
  role: 'admin',
  body: 'json',
  request: EmptyRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const getCommissionRulesResponse = Programme;
