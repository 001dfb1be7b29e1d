import type { Call } from '../call';
import { AdminLinkStatisticsRequest, LinkStatistics } from '../visits';

/**
 * POST /api/getLinkStatistics (admin): The admin's link statistics: every link, one product's or one member's, by day for 90 days, with the funnel.
 */
export const getLinkStatistics = {
  name: 'getLinkStatistics',
  path: '/api/getLinkStatistics',
  role: 'admin',
  body: 'json',
  request: AdminLinkStatisticsRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const getLinkStatisticsResponse = LinkStatistics;
