import { createPayoutAccount as createPayoutAccountCall } from '@portal/shared/api/calls/create-payout-account';
import { toProfile } from '../auth/user-store';
import { apiHandler, payouts } from '../composition';
import { createPayoutAccount, member } from '../payments/payouts';

export const handler = apiHandler(createPayoutAccountCall, async ({ body, user, event, sourceIp }) => {
  // `refresh_token` is accepted and ignored: the session is the access token's.
  const { refresh_token: _ignored, tos_accepted: _accepted, ...form } = body;
  const stored = await createPayoutAccount(payouts, member(user), form, {
    ip: sourceIp,
    userAgent: event.headers['user-agent'],
  });
  return { user: toProfile(stored) };
});
