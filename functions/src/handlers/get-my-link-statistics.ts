import { getMyLinkStatistics } from '@portal/shared/api/calls/get-my-link-statistics';
import { apiHandler, linkStatistics } from '../composition';
import { unauthorized } from '../errors';
import { memberStatistics } from '../visits/statistics';

/** The member's link statistics: their links' visits, checkouts, sales and earnings by day for 90 days. */
export const handler = apiHandler(getMyLinkStatistics, async ({ user }) => {
  if (!user) throw unauthorized();
  return memberStatistics(linkStatistics, user.id);
});
