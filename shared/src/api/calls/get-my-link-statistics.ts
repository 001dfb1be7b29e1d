import type { Call } from '../call';
import { MyLinkStatisticsRequest, LinkStatistics } from '../visits';

/**
 * POST /api/getMyLinkStatistics (member): The member's link statistics: visits, checkouts, sales, earnings by day for 90 days, all products and each.
 */
export const getMyLinkStatistics = {
  name: 'getMyLinkStatistics',
  path: '/api/getMyLinkStatistics',
  role: 'member',
  body: 'json',
  request: MyLinkStatisticsRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const getMyLinkStatisticsResponse = LinkStatistics;
