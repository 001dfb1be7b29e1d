import { updatePayoutAccount as updatePayoutAccountCall } from '@portal/shared/api/calls/update-payout-account';
import { toProfile } from '../auth/user-store';
import { apiHandler, payouts } from '../composition';
import { member, updatePayoutAccount } from '../payments/payouts';

/** The member's corrected details to Stripe (payments/payouts.ts updatePayoutAccount). */
export const handler = apiHandler(updatePayoutAccountCall, async ({ body, user }) => ({
  user: toProfile(await updatePayoutAccount(payouts, member(user), body)),
}));
