import { getWithdrawalQuote } from '@portal/shared/api/calls/get-withdrawal-quote';
import { apiHandler, payoutBatches } from '../composition';
import { withdrawalQuote } from '../commissions/batches';
import { member } from '../payments/payouts';

/** Member: what "Withdraw" would pay now (commissions/batches.ts). */
export const handler = apiHandler(getWithdrawalQuote, async ({ user }) =>
  withdrawalQuote(payoutBatches, member(user).id),
);
