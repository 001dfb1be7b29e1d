import { isPasswordTheEmail } from '@portal/shared/api/account';
import { PASSWORD_IS_COMMON, PASSWORD_IS_EMAIL } from '@portal/shared/api/schemas';
import { DomainError, badRequest, conflict } from '../errors';
import { withAccountLock, type LockDeps } from './account-lock';
import { isCommonPassword } from './common-passwords';
import { hashPassword, verifyPassword } from './passwords';
import type { createLoginLimiter } from './rate-limit';
import type { ProfileFields, UserRecord, UserRepository } from './user-store';

/**
 * A member's own account (issue 28): the profile they edit, and the current password asked again
 * before the password or the e-mail address changes. A wrong current password is counted as a
 * login attempt (the login's limits, counted before the hash), so this is no way round them.
 */
export const WRONG_CURRENT_PASSWORD = 'Your current password is not right. Type it again.';
export const PASSWORD_CHANGED_ELSEWHERE =
  'Your password was changed at the same moment somewhere else. Log in again with the new password.';
export const PASSWORD_CHANGE_UNDER_WAY =
  'Your password is already being changed (in another tab, or by a second click). Wait a few seconds: if this password does not work then, log in with the one you chose there.';

type Limiter = ReturnType<typeof createLoginLimiter>;

/** 400 at `field` when `password` is not the user's, after counting the attempt (429 past the limits). */
export async function confirmPassword(
  limiter: Limiter,
  user: UserRecord,
  password: string,
  sourceIp: string,
  field: string,
): Promise<void> {
  const attempt = await limiter.begin(user.email, sourceIp);
  if (!(await verifyPassword(password, user.passwordHash))) {
    throw new DomainError('bad-request', WRONG_CURRENT_PASSWORD, { fields: { [field]: WRONG_CURRENT_PASSWORD } });
  }
  await attempt.succeeded();
}

/** The rules of sign-up the schema cannot check: not the e-mail address, not a leaked password. */
export function checkNewPassword(password: string, email: string, field: string): void {
  if (isPasswordTheEmail(password, email)) throw badRequest(PASSWORD_IS_EMAIL, { [field]: PASSWORD_IS_EMAIL });
  if (isCommonPassword(password)) throw badRequest(PASSWORD_IS_COMMON, { [field]: PASSWORD_IS_COMMON });
}

/**
 * Sets a new password once the current one is confirmed; the session `keepFamilyId` stays, every
 * other session of the account ends (the session generation moves on in the same transaction).
 * The account's password lock is taken before the two scrypt hashes: a concurrent change of the
 * same account is a 409 at once rather than a queue of hashes that outlasts the function.
 */
export async function changePassword(
  deps: { users: Pick<UserRepository, 'setPassword'>; limiter: Limiter } & LockDeps,
  user: UserRecord,
  body: { currentPassword: string; newPassword: string },
  keepFamilyId: string,
  sourceIp: string,
): Promise<void> {
  checkNewPassword(body.newPassword, user.email, 'newPassword');
  await withAccountLock(
    deps,
    user.id,
    'password',
    () => conflict(PASSWORD_CHANGE_UNDER_WAY),
    async () => {
      await confirmPassword(deps.limiter, user, body.currentPassword, sourceIp, 'currentPassword');
      const changed = await deps.users.setPassword(
        user.id,
        user.passwordHash,
        await hashPassword(body.newPassword),
        keepFamilyId,
      );
      if (!changed) throw conflict(PASSWORD_CHANGED_ELSEWHERE);
    },
  );
}

/** Saves the profile's own fields (the display name empty: the default one). */
export async function updateProfile(
  users: Pick<UserRepository, 'updateProfile'>,
  user: UserRecord,
  fields: Omit<ProfileFields, 'display_name' | 'address_unit'> & { display_name?: string; address_unit?: string },
): Promise<UserRecord> {
  const saved = await users.updateProfile(user.id, {
    ...fields,
    display_name: fields.display_name ?? '',
    address_unit: fields.address_unit ?? '',
  });
  if (!saved) throw new DomainError('unauthorized', 'Your session has ended. Log in again.');
  return saved;
}

/** The caller of a member call (the middy stack has checked the role; this narrows the type). */
export function signedIn(user: UserRecord | undefined): UserRecord {
  if (!user) throw new DomainError('unauthorized', 'Your session has ended. Log in again.');
  return user;
}
