import { keys } from '@portal/shared/db/table';
import { tableName } from './dynamo-client';
import { singleUseLinks } from './dynamo-single-use-links';
import type { PasswordResetRecord, PasswordResetStore, ResetOutcome } from '../email/password-reset-store';

const links = singleUseLinks<PasswordResetRecord>({
  name: 'Password reset',
  entity: 'PasswordReset',
  key: keys.passwordReset,
});

export const dynamoPasswordResets: PasswordResetStore = {
  save: links.save,
  get: links.get,
  use: (tokenHash, passwordHash, now): Promise<ResetOutcome> =>
    links.use<ResetOutcome>(tokenHash, now, {
      writes: (record) => [
        {
          Update: {
            TableName: tableName(),
            Key: keys.user(record.userId),
            // A new generation: every session family of the account (of the old one) ends.
            UpdateExpression:
              'SET passwordHash = :hash, sessionGeneration = if_not_exists(sessionGeneration, :zero) + :one',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':hash': passwordHash, ':zero': 0, ':one': 1 },
          },
        },
      ],
      done: () => ({ outcome: 'reset' }),
      refused: (failed) => (failed.includes(1) ? { outcome: 'user-gone' } : undefined),
    }),
};
