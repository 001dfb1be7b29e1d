import { addPayoutMethod as addPayoutMethodCall } from '@portal/shared/api/calls/add-payout-method';
import { toProfile } from '../auth/user-store';
import { apiHandler, payouts } from '../composition';
import { addPayoutMethod, member } from '../payments/payouts';

export const handler = apiHandler(addPayoutMethodCall, async ({ body, user }) => {
  const added = await addPayoutMethod(payouts, member(user), body);
  return { user: toProfile(added.user), card: added.card };
});
