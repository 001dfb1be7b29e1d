import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { WithdrawalQuote } from '@portal/shared/api/payout-batches';
import { formatMoney } from '@portal/shared/domain/format';
import { db, isConditionFailed, tableName } from '../../functions/src/adapters/dynamo-client';
import { dynamoUsers } from '../../functions/src/adapters/auth/dynamo-users';
import { withdrawalQuote } from '../../functions/src/commissions/batches';
import { payoutBatches } from '../../functions/src/composition';

/**
 * The payouts' demo (issue 27), once per data folder, after the demo sales: the demo member is
 * left able to withdraw (the demo sales leave them commissions in processing and in Stripe, over
 * the payout minimum, with a verified account and a debit card that takes instant payouts), and
 * the four other demo members have commissions for "Send all available" and "Pay all". What the
 * seed checks and keeps is the demo member's withdrawal as My Account quotes it, so `npm start`
 * can say it and a test can hold it. Nothing moves money here: the screens are for that.
 */
export const DEMO_PAYOUTS_MARKER = { pk: 'DEMO#payouts', sk: 'DEMO' };

export type DemoPayoutsOutcome =
  { seeded: true; quote: WithdrawalQuote } | { seeded: false; reason: 'present' | 'no-member' | 'no-stripe' };

export async function seedDemoPayouts(options: {
  memberEmail: string;
  stripeApiUrl: string | undefined;
}): Promise<DemoPayoutsOutcome> {
  if (!options.stripeApiUrl) return { seeded: false, reason: 'no-stripe' };
  const marker = await db().send(
    new GetCommand({ TableName: tableName(), Key: DEMO_PAYOUTS_MARKER, ConsistentRead: true }),
  );
  if (marker.Item) return { seeded: false, reason: 'present' };
  const member = await dynamoUsers.findByEmail(options.memberEmail);
  if (!member) return { seeded: false, reason: 'no-member' };
  const quote = await withdrawalQuote(payoutBatches, member.id);
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...DEMO_PAYOUTS_MARKER, entity: 'DemoSeed', state: 'done', seededAt: new Date().toISOString(), quote },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  } catch (error) {
    if (isConditionFailed(error)) return { seeded: false, reason: 'present' };
    throw error;
  }
  return { seeded: true, quote };
}

/** The line `npm start` prints about it. */
export function describeDemoPayouts(outcome: DemoPayoutsOutcome): string | undefined {
  if (!outcome.seeded) return undefined;
  const { quote } = outcome;
  if (!quote.canWithdraw)
    return `Demo payouts: the demo member cannot withdraw yet (${quote.reason ?? 'no reason given'}).`;
  return `Demo payouts: the demo member can withdraw ${formatMoney(Math.round(quote.receive * 100))} to the card ending ${quote.card?.last4 ?? '····'} (${quote.method}${quote.fee ? `, fee ${formatMoney(Math.round(quote.fee * 100))}` : ''}) on My Account; To Stripe and To Be Payed hold "Send all available" and "Pay all".`;
}
