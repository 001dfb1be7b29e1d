import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '@portal/shared/db/table';
import { db, isConditionFailed, tableName, writtenUnlessConditionFails } from '../dynamo-client';
import type { AccountRequest, PayoutAccountStore } from '../../payments/payout-store';

/** An UpdateItem that answers false when its condition fails. */
const conditionalUpdate = (input: ConstructorParameters<typeof UpdateCommand>[0]): Promise<boolean> =>
  writtenUnlessConditionFails(() => db().send(new UpdateCommand(input)));

/** The user holds no payout account (a cleared one is null). */
const NO_ACCOUNT = 'attribute_exists(pk) AND (attribute_not_exists(stripeID) OR stripeID = :null)';

/** The payout fields of the user item (`USER#<id>` / `PROFILE`); never a tax ID or a date of birth. */
export const dynamoPayoutAccounts: PayoutAccountStore = {
  savePayoutAccount(userId, stripeID, profile, state) {
    const names = Object.keys(profile) as (keyof typeof profile)[];
    return conditionalUpdate({
      TableName: tableName(),
      Key: keys.user(userId),
      UpdateExpression: `SET stripeID = :stripeID, isAccountCreated = :one, payoutAccount = :accountState, ${names
        .map((name) => `#${name} = :profile_${name}`)
        .join(', ')}`,
      ConditionExpression: NO_ACCOUNT,
      ExpressionAttributeNames: Object.fromEntries(names.map((name) => [`#${name}`, name])),
      ExpressionAttributeValues: {
        ':stripeID': stripeID,
        ':one': 1,
        ':accountState': state,
        ':null': null,
        // the profile's values under a prefix of their own: a field named like another placeholder
        // (the US `state` and the account's `:state`) once overwrote the stored account state
        ...Object.fromEntries(names.map((name) => [`:profile_${name}`, profile[name]])),
      },
    });
  },

  async keepAccountRequest(userId, request) {
    try {
      const kept = await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.user(userId),
          UpdateExpression: 'SET payoutAccountRequest = if_not_exists(payoutAccountRequest, :request)',
          ConditionExpression: NO_ACCOUNT,
          ExpressionAttributeValues: { ':request': request, ':null': null },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return kept.Attributes?.payoutAccountRequest as AccountRequest;
    } catch (error) {
      if (isConditionFailed(error)) return undefined;
      throw error;
    }
  },

  setPayoutMethodAdded(userId, stripeID) {
    return conditionalUpdate({
      TableName: tableName(),
      Key: keys.user(userId),
      UpdateExpression: 'SET isPayoutMethodAdded = :one',
      ConditionExpression: 'stripeID = :stripeID',
      ExpressionAttributeValues: { ':one': 1, ':stripeID': stripeID },
    });
  },

  setPayoutAccountState(userId, stripeID, state, orSameSecond = false) {
    // A late, older event (Stripe does not deliver in order) fails the condition and changes nothing.
    return conditionalUpdate({
      TableName: tableName(),
      Key: keys.user(userId),
      UpdateExpression: 'SET payoutAccount = :state',
      ConditionExpression: `stripeID = :stripeID AND (attribute_not_exists(payoutAccount.asOf) OR payoutAccount.asOf ${
        orSameSecond ? '<=' : '<'
      } :asOf)`,
      ExpressionAttributeValues: { ':state': state, ':stripeID': stripeID, ':asOf': state.asOf },
    });
  },
};
