import { getCommissionRules } from '@portal/shared/api/calls/get-commission-rules';
import { apiHandler, commissionRules } from '../composition';
import { presentProgramme } from '../rules/programme';

/** Admin: the commission rules and member groups (rules/programme.ts). */
export const handler = apiHandler(getCommissionRules, async () =>
  presentProgramme(await commissionRules.store.programme()),
);
