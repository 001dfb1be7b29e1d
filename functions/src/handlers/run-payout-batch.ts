import { runPayoutBatch } from '@portal/shared/api/calls/run-payout-batch';
import { DomainError } from '../errors';
import { apiHandler, batchPayoutOnItsWay, payoutBatches, users } from '../composition';
import { orConflict, runForEveryone, runMemberBatch, summary } from '../commissions/batches';

/** The call stops starting members this long before its 29 s timeout; the rest are answered as `remaining`. */
const STOP_BEFORE_TIMEOUT_MS = 12_000;
const TIMEOUT_MS = 29_000;

/** Admin: "Send all available" / "Pay all", for one member or everyone (commissions/batches.ts). */
export const handler = apiHandler(runPayoutBatch, async ({ body }) => {
  // With the member's "your payout is on its way" once a payout is recorded (read at call time: tests swap parts).
  const deps = { ...payoutBatches, paidOut: batchPayoutOnItsWay };
  const kind = body.step;
  const batchId = `admin-${body.requestId}`;
  if (body.memberId) {
    const member = await users.get(body.memberId);
    if (!member) throw new DomainError('not-found', 'No such member.');
    const outcome = orConflict(
      await runMemberBatch(deps, { batchId, memberId: member.id, memberEmail: member.email, kind }),
    );
    return { outcomes: [outcome], remaining: 0, message: outcome.message };
  }
  const deadline = deps.now() + TIMEOUT_MS - STOP_BEFORE_TIMEOUT_MS;
  const { outcomes, remaining } = await runForEveryone(deps, { batchId, kind, deadline });
  return { outcomes, remaining, message: summary(outcomes, remaining) };
});
