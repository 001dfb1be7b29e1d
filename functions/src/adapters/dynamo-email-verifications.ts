import { keys } from '@portal/shared/db/table';
import { tableName } from './dynamo-client';
import { singleUseLinks, type TransactItem } from './dynamo-single-use-links';
import type { ConsumeOutcome, VerificationRecord, VerificationStore } from '../email/verification-store';

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
  if (from === undefined) {
    return [
      {
        Update: {
          TableName: tableName(),
          Key: keys.user(record.userId),
          UpdateExpression: 'SET isEmailVerified = :verified',
          ConditionExpression: 'attribute_exists(pk) AND email = :email',
          ExpressionAttributeValues: { ':verified': true, ':email': record.email },
        },
      },
    ];
  }
  return [
    {
      Update: {
        TableName: tableName(),
        Key: keys.user(record.userId),
        UpdateExpression: 'SET email = :to, isEmailVerified = :verified',
        ConditionExpression: 'attribute_exists(pk) AND email = :from',
        ExpressionAttributeValues: { ':to': record.email, ':from': from, ':verified': true },
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
      // the new address claimed by another account meanwhile (2).
      refused: (failed) =>
        failed.includes(1) || failed.includes(3)
          ? { outcome: 'address-changed' }
          : failed.includes(2)
            ? { outcome: 'taken' }
            : undefined,
    }),
};
