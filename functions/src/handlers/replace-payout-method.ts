import { replacePayoutMethod as replacePayoutMethodCall } from '@portal/shared/api/calls/replace-payout-method';
import { toProfile } from '../auth/user-store';
import { apiHandler, payouts } from '../composition';
import { member, replacePayoutMethod } from '../payments/payouts';

/** The caller's new debit card in place of the old one: default first, then the old one deleted. */
export const handler = apiHandler(replacePayoutMethodCall, async ({ body, user }) => {
  const replaced = await replacePayoutMethod(payouts, member(user), body);
  return { user: toProfile(replaced.user), card: replaced.card };
});
