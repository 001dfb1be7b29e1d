import { Email, Password } from '@portal/shared/api/schemas';
import { dynamoUsers } from '../../functions/src/adapters/auth/dynamo-users';
import { hashPassword } from '../../functions/src/auth/passwords';
import { newId } from '../../functions/src/auth/tokens';
import { newUserRecord } from '../../functions/src/auth/user-store';

/**
 * Creates an account with a verified e-mail (or, when the e-mail exists, only sets its admin
 * flag) through the same repository and hashing the handlers use. Needs the function environment (TABLE_NAME, and
 * DYNAMODB_ENDPOINT locally) to be set.
 */
export async function ensureAccount(
  rawEmail: string,
  password: string | undefined,
  isAdmin: boolean,
): Promise<'created' | 'present'> {
  const email = Email.parse(rawEmail);
  const existing = await dynamoUsers.findByEmail(email);
  if (existing) {
    if (isAdmin && !existing.isAdmin) await dynamoUsers.setAdmin(existing.id, true);
    return 'present';
  }
  if (!password) throw new Error(`There is no account for ${email}: give a password to create one.`);
  // The operator named this address (the demo accounts, create-admin): no link to follow, it
  // starts verified. Sign-ups verify theirs by the link mailed to them.
  const user = {
    ...newUserRecord(newId(), email, await hashPassword(Password.parse(password)), new Date()),
    isAdmin,
    isEmailVerified: true,
  };
  if (!(await dynamoUsers.create(user))) return 'present';
  return 'created';
}
