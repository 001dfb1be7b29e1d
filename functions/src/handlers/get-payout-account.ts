import { getPayoutAccount } from '@portal/shared/api/calls/get-payout-account';
import { toProfile } from '../auth/user-store';
import { apiHandler } from '../composition';
import { member } from '../payments/payouts';

/** The caller's profile as stored now (the authenticator read it for this call), payout account state included. */
export const handler = apiHandler(getPayoutAccount, ({ user }) => Promise.resolve({ user: toProfile(member(user)) }));
