import { keys } from '@portal/shared/db/table';
import { tableName } from '../dynamo-client';
import { singleUseLinks, type TransactItem } from './dynamo-single-use-links';
import { NEXT_LINK_GENERATION, sameLinkGeneration, userById } from '../dynamo-user-items';
import type { ConsumeOutcome, VerificationRecord, VerificationStore } from '../../email/verification-store';

const links = singleUseLinks<VerificationRecord>({
  name: 'E-mail verification',
  entity: 'EmailVerification',
  key: keys.emailVerification,
});

/**
 * Besides the link used: the user verified while the address is still theirs; for a change of
 * address (`replaces`), the user's address moved (conditional on the old one), the new address
 * claimed (only if nobody holds it) and the old claim released (only if it is this user's).
 */
function verification(record: VerificationRecord): TransactItem[] {
  const from = record.replaces;
  // Every link works only while no change of the password or the e-mail address came after it.
  const generation = sameLinkGeneration(record.linkGeneration);
  if (from === undefined) {
    return [
      {
        Update: {
          TableName: tableName(),
          Key: keys.user(record.userId),
          UpdateExpression: 'SET isEmailVerified = :verified',
          ConditionExpression: `attribute_exists(pk) AND email = :email AND ${generation.condition}`,
          ExpressionAttributeValues: { ':verified': true, ':email': record.email, ...generation.values },
        },
      },
    ];
  }
  return [
    {
      Update: {
        TableName: tableName(),
        Key: keys.user(record.userId),
        // A change of address: every other link mailed to the account ends with it.
        UpdateExpression: `SET email = :to, isEmailVerified = :verified, ${NEXT_LINK_GENERATION}`,
        ConditionExpression: `attribute_exists(pk) AND email = :from AND ${generation.condition}`,
        ExpressionAttributeValues: {
          ':to': record.email,
          ':from': from,
          ':verified': true,
          ':zero': 0,
          ':one': 1,
          ...generation.values,
        },
      },
    },
    {
      Put: {
        TableName: tableName(),
        Item: { ...keys.email(record.email), entity: 'UserEmail', userId: record.userId },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Delete: {
        TableName: tableName(),
        Key: keys.email(from),
        ConditionExpression: 'userId = :userId',
        ExpressionAttributeValues: { ':userId': record.userId },
      },
    },
  ];
}

export const dynamoEmailVerifications: VerificationStore = {
  save: links.save,
  consume: (tokenHash, now): Promise<ConsumeOutcome> =>
    links.use<ConsumeOutcome>(tokenHash, now, {
      writes: verification,
      done: (record) => ({ outcome: 'verified', record: { ...record, usedAt: now } }),
      // The user gone or their address no longer the link's (1), or the old claim not theirs (3);
      // the new address claimed by another account meanwhile (2). The user's item refused with the
      // address still the link's: the link generation moved on (a change came after the link).
      refused: async (failed, record) => {
        // The link itself refused (another use of it): read it again, and it says "used".
        if (failed.includes(0)) return undefined;
        if (failed.includes(1)) {
          const user = await userById(record.userId);
          return user && user.email === (record.replaces ?? record.email)
            ? { outcome: 'superseded' }
            : { outcome: 'address-changed' };
        }
        if (failed.includes(3)) return { outcome: 'address-changed' };
        return failed.includes(2) ? { outcome: 'taken' } : undefined;
      },
    }),
};
