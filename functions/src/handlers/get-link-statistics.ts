import { getLinkStatistics } from '@portal/shared/api/calls/get-link-statistics';
import { apiHandler, linkStatistics } from '../composition';
import { adminStatistics } from '../visits/statistics';

/** The admin's link statistics: every link, one product's or one member's, by day for 90 days. */
export const handler = apiHandler(getLinkStatistics, async ({ body }) => adminStatistics(linkStatistics, body));
