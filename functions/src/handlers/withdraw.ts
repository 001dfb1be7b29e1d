import { withdraw } from '@portal/shared/api/calls/withdraw';
import { apiHandler, batchPayoutOnItsWay, payoutBatches } from '../composition';
import { orConflict, runMemberBatch } from '../commissions/batches';
import { member } from '../payments/payouts';

const cents = (dollars: number) => Math.round(dollars * 100);

/** Member: withdraws the available balance to their debit card, as the confirmation showed it (commissions/batches.ts). */
export const handler = apiHandler(withdraw, async ({ body, user }) => {
  const me = member(user);
  const outcome = orConflict(
    await runMemberBatch(
      { ...payoutBatches, paidOut: batchPayoutOnItsWay },
      {
        batchId: `withdraw-${body.requestId}`,
        memberId: me.id,
        memberEmail: me.email,
        kind: 'withdraw',
        terms: { receiveCents: cents(body.receive), feeCents: cents(body.fee) },
      },
    ),
    { nothingIsRefused: true },
  );
  return { outcome };
});
