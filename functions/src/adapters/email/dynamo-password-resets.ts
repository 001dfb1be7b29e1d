import { keys } from '@portal/shared/db/table';
import { tableName } from '../dynamo-client';
import { singleUseLinks } from './dynamo-single-use-links';
import { NEXT_LINK_GENERATION, sameLinkGeneration, userById } from '../dynamo-user-items';
import type { PasswordResetRecord, PasswordResetStore, ResetOutcome } from '../../email/password-reset-store';

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
      writes: (record) => {
        const generation = sameLinkGeneration(record.linkGeneration);
        return [
          {
            Update: {
              TableName: tableName(),
              Key: keys.user(record.userId),
              // A new session generation: every session family of the account (of the old one)
              // ends; a new link generation: every other link mailed to the account ends.
              UpdateExpression: `SET passwordHash = :hash, sessionGeneration = if_not_exists(sessionGeneration, :zero) + :one, ${NEXT_LINK_GENERATION}`,
              // Only while no change of the password or the e-mail address came after the link.
              ConditionExpression: `attribute_exists(pk) AND ${generation.condition}`,
              ExpressionAttributeValues: { ':hash': passwordHash, ':zero': 0, ':one': 1, ...generation.values },
            },
          },
        ];
      },
      done: () => ({ outcome: 'reset' }),
      refused: async (failed, record) => {
        // The link itself refused (another use of it): read it again, and it says "used".
        if (failed.includes(0) || !failed.includes(1)) return undefined;
        return (await userById(record.userId)) ? { outcome: 'superseded' } : { outcome: 'user-gone' };
      },
    }),
};
