import { getCommissions } from '@portal/shared/api/calls/get-commissions';
import { searchedCommissionsPage } from '../commissions/reads';
import { apiHandler, commissionStore } from '../composition';

export const handler = apiHandler(getCommissions, async ({ body }) => searchedCommissionsPage(commissionStore, body));
