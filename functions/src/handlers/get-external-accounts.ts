import { getExternalAccounts } from '@portal/shared/api/calls/get-external-accounts';
import { apiHandler, payouts } from '../composition';
import { listPayoutCards, member } from '../payments/payouts';

export const handler = apiHandler(getExternalAccounts, async ({ body, user }) =>
  listPayoutCards(payouts, member(user), body.id),
);
