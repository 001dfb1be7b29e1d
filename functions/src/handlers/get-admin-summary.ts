import { getAdminSummary } from '@portal/shared/api/calls/get-admin-summary';
import { apiHandler, summary } from '../composition';
import { adminSummary } from '../orders/admin-summary';

/** The admin home's figures: no list is read, only counters and two bounded counts. */
export const handler = apiHandler(getAdminSummary, () => adminSummary(summary));
