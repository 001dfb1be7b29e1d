import type { Context } from 'aws-lambda';
import { batchPayoutOnItsWay, payoutBatches } from '../../composition';
import { dailyBatchId, runForEveryone, summary } from '../../commissions/batches';
import { loadLogger } from '../../config/logger';

/** What a run keeps of its time for the member it is on when it stops starting new ones. */
const TIME_RESERVE_MS = 60_000;
/** Without a Lambda context (the local timer, `npm run payouts:run`): the function's own 15 minutes. */
const DEFAULT_BUDGET_MS = 15 * 60_000;

export interface DailyPayoutsResult {
  batchId: string;
  paid: number;
  settled: number;
  belowMinimum: number;
  attention: { memberEmail: string; message: string }[];
  remaining: number;
  summary: string;
}

/**
 * The daily payouts (EventBridge, 00:00 UTC; locally a timer in npm start and
 * `npm run payouts:run`): every member whose available balance after clawbacks reaches
 * PAYOUT_MINIMUM_CENTS is paid in one transfer and one payout, in the day's batch
 * (`daily-<YYYY-MM-DD>`), so a second run the same day, or Lambda's retry after a crash, continues
 * that batch and pays no one twice. Members left when time runs out make the run throw, so
 * Lambda's retry resumes it.
 */
export const handler = async (
  _event?: unknown,
  context?: Pick<Context, 'getRemainingTimeInMillis'>,
): Promise<DailyPayoutsResult> => {
  const now = payoutBatches.now();
  const batchId = dailyBatchId(now);
  const budget = context ? context.getRemainingTimeInMillis() : DEFAULT_BUDGET_MS;
  // With each member's "your payout is on its way" once their payout is recorded (once per payout).
  const { outcomes, remaining } = await runForEveryone(
    { ...payoutBatches, paidOut: batchPayoutOnItsWay },
    {
      batchId,
      kind: 'daily',
      deadline: now + budget - TIME_RESERVE_MS,
    },
  );
  const result: DailyPayoutsResult = {
    batchId,
    paid: outcomes.filter((o) => o.state === 'paid').length,
    settled: outcomes.filter((o) => o.state === 'settled').length,
    belowMinimum: outcomes.filter((o) => o.state === 'below_minimum').length,
    attention: outcomes
      .filter((o) => o.state === 'refused' || o.state === 'waiting' || o.state === 'busy')
      .map((o) => ({ memberEmail: o.memberEmail, message: o.message })),
    remaining,
    summary: summary(outcomes, remaining),
  };
  const logger = await loadLogger();
  if (remaining > 0) {
    logger.error('daily payouts ran out of time; the retry continues the batch', { ...result });
    throw new Error(`Daily payouts ${batchId}: ${remaining} members not reached; the retry continues the batch.`);
  }
  logger.info('daily payouts finished', { ...result });
  return result;
};
