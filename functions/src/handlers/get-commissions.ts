import { getCommissions } from '@portal/shared/api/calls/get-commissions';
import { searchedCommissionsPage } from '../commissions/reads';
import { apiHandler, sales } from '../composition';

export const handler = apiHandler(getCommissions, async ({ body }) => searchedCommissionsPage(sales, body));
