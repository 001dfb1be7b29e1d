import { createHash, randomBytes } from 'node:crypto';
import {
  EXPIRED_RESET_LINK,
  INVALID_RESET_LINK,
  SUPERSEDED_RESET_LINK,
  USED_RESET_LINK,
  isPasswordTheEmail,
} from '@portal/shared/api/account';
import { PASSWORD_IS_COMMON, PASSWORD_IS_EMAIL } from '@portal/shared/api/schemas';
import type { AttemptStore } from '../auth/attempt-store';
import { isCommonPassword } from '../auth/common-passwords';
import { hashPassword } from '../auth/passwords';
import { tooManyAttempts } from '../auth/rate-limit';
import type { UserRecord } from '../auth/user-store';
import { badRequest, conflict } from '../errors';
import type { Mailer, OutgoingMail } from './mailer';
import type { PasswordResetStore } from './password-reset-store';
import { escapeHtml } from './templates';

/**
 * A forgotten password (issue 28): a single-use link by mail, valid one hour.
 *
 * - the link carries 32 random bytes (base64url); the table keeps only their SHA-256;
 * - asking answers the same whether or not the address has an account (and for an account whose
 *   own limit is used up): nothing in the answer says which, nor its time: from the first read of
 *   the address on, the answer takes at least RESET_ANSWER_FLOOR_MS (decision 0241), longer than
 *   the mail and its writes take, so a registered address is not the slower one;
 * - asking is throttled per client address like sign-up (RESET_LIMITS.perAddress an hour, a 429
 *   in words), counted before anything is read; and per account (RESET_LIMITS.perAccount an hour),
 *   silently: past it no mail is sent, so nobody can flood a mailbox;
 * - using it sets the new password (the sign-up's rules) and moves the session generation on in
 *   the same transaction that marks the link used: every session of the account ends;
 * - a link records the account's link generation when it is sent and works only while it is the
 *   account's: any change of the password or the e-mail address (this link's use included) moves it
 *   on, so no link mailed before a change works after it (decision 0240).
 */
export const RESET_LINK_VALID_MS = 60 * 60 * 1000;
export const RESET_PATH = '/reset_password';
/**
 * The least time a reset request's answer takes from its start, once the client address's count
 * allowed it: the registered path (two reads, two writes, the mail) ends before it; the unknown one
 * (one read) waits the rest. A Lambda is frozen after its answer, so the mail cannot follow it.
 */
export const RESET_ANSWER_FLOOR_MS = 1_000;

/** A duration's clock and a wait (config/clock.ts): what holds an answer to its floor. */
export interface Pause {
  elapsed(): number;
  sleep(ms: number): Promise<void>;
}

export const RESET_LIMITS = {
  perAddress: { count: 10, windowMs: 60 * 60 * 1000 },
  perAccount: { count: 3, windowMs: 60 * 60 * 1000 },
} as const;

export interface PasswordResetDeps {
  store: PasswordResetStore;
  attempts: AttemptStore;
  mailer: Mailer;
  users: {
    findByEmail(email: string): Promise<UserRecord | undefined>;
    get(id: string): Promise<UserRecord | undefined>;
  };
  now: () => number;
  siteUrl: () => string;
  pause: Pause;
}

/** What using a link needs: no mailer (the function that sets the password sends no mail). */
export type PasswordResetUseDeps = Pick<PasswordResetDeps, 'store' | 'users' | 'now'>;

export const hashResetToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export function resetMail(to: string, url: string): OutgoingMail {
  const escaped = escapeHtml(url);
  const after =
    'The link works once and expires in one hour. If you did not ask for it, ignore this e-mail: your password stays as it is.';
  return {
    to,
    subject: 'Reset your Reseller Portal password',
    text: [
      'Hello,',
      '',
      'Open this link to choose a new password for your Reseller Portal account:',
      url,
      '',
      after,
    ].join('\n'),
    html: [
      '<!doctype html><html><body style="font-family:sans-serif">',
      '<p>Hello,</p>',
      '<p>Open this link to choose a new password for your Reseller Portal account:</p>',
      `<p><a href="${escaped}">Choose a new password</a></p>`,
      `<p style="color:#555">Or copy this address into your browser: ${escaped}</p>`,
      `<p style="color:#555">${after}</p>`,
      '</body></html>',
    ].join('\n'),
    link: { label: 'Password reset link', url },
  };
}

/** Asking for a link: the request call. */
export function createPasswordResetRequests(deps: PasswordResetDeps) {
  return {
    /** Mails a link when the address has an account; the same answer either way. */
    async request(email: string, sourceIp: string): Promise<{ sent: true; email: string; validMinutes: number }> {
      const started = deps.pause.elapsed();
      const now = deps.now();
      const perAddress = await deps.attempts.take(
        'reset-address',
        sourceIp,
        RESET_LIMITS.perAddress.count,
        RESET_LIMITS.perAddress.windowMs,
        now,
      );
      // Refused before anything is read of the address: this answer says nothing of it.
      if (!perAddress.allowed) throw tooManyAttempts(perAddress.retryAfterMs);
      try {
        return await mailIfRegistered(email, now);
      } finally {
        // Whichever path it took (an error too), the answer leaves at the floor, not before.
        const left = RESET_ANSWER_FLOOR_MS - (deps.pause.elapsed() - started);
        if (left > 0) await deps.pause.sleep(left);
      }
    },
  };

  /** Mails a link when the address has an account and its hour's mails allow it; the same answer either way. */
  async function mailIfRegistered(
    email: string,
    now: number,
  ): Promise<{ sent: true; email: string; validMinutes: number }> {
    const answer = { sent: true as const, email, validMinutes: RESET_LINK_VALID_MS / 60_000 };
    const user = await deps.users.findByEmail(email);
    if (!user) return answer;
    const perAccount = await deps.attempts.take(
      'reset-account',
      user.id,
      RESET_LIMITS.perAccount.count,
      RESET_LIMITS.perAccount.windowMs,
      now,
    );
    if (!perAccount.allowed) return answer;
    const token = randomBytes(32).toString('base64url');
    try {
      await deps.store.save({
        tokenHash: hashResetToken(token),
        userId: user.id,
        email: user.email,
        createdAt: now,
        expiresAtMs: now + RESET_LINK_VALID_MS,
        linkGeneration: user.linkGeneration ?? 0,
      });
      const url = new URL(RESET_PATH, deps.siteUrl());
      url.searchParams.set('token', token);
      await deps.mailer.send(resetMail(user.email, url.href));
    } catch (error) {
      await deps.attempts.giveBack('reset-account', user.id, perAccount.windowStart).catch(() => undefined);
      throw error;
    }
    return answer;
  }
}

const superseded = () => badRequest(SUPERSEDED_RESET_LINK, { token: SUPERSEDED_RESET_LINK });

/** Using a link: the reset call. */
export function createPasswordResetUse(deps: PasswordResetUseDeps) {
  return {
    /** Whether the link can still be used, as `reset` would find it (the page asks when it opens). */
    async check(token: string): Promise<{ ok: true }> {
      const record = await deps.store.get(hashResetToken(token));
      if (!record) throw badRequest(INVALID_RESET_LINK, { token: INVALID_RESET_LINK });
      if (record.usedAt !== undefined) throw conflict(USED_RESET_LINK);
      if (record.expiresAtMs <= deps.now()) throw badRequest(EXPIRED_RESET_LINK, { token: EXPIRED_RESET_LINK });
      return { ok: true };
    },
    /** Sets the new password with a link's token; ends every session of the account. */
    async reset(token: string, password: string): Promise<{ ok: true; email: string }> {
      const tokenHash = hashResetToken(token);
      const record = await deps.store.get(tokenHash);
      if (!record) throw badRequest(INVALID_RESET_LINK, { token: INVALID_RESET_LINK });
      if (record.usedAt !== undefined) throw conflict(USED_RESET_LINK);
      if (record.expiresAtMs <= deps.now()) throw badRequest(EXPIRED_RESET_LINK, { token: EXPIRED_RESET_LINK });
      const user = await deps.users.get(record.userId);
      if (!user) throw badRequest(INVALID_RESET_LINK, { token: INVALID_RESET_LINK });
      // Said before the hash; the transaction checks it again.
      if ((record.linkGeneration ?? 0) !== (user.linkGeneration ?? 0)) throw superseded();
      if (isPasswordTheEmail(password, user.email))
        throw badRequest(PASSWORD_IS_EMAIL, { password: PASSWORD_IS_EMAIL });
      if (isCommonPassword(password)) throw badRequest(PASSWORD_IS_COMMON, { password: PASSWORD_IS_COMMON });
      const outcome = await deps.store.use(tokenHash, await hashPassword(password), deps.now());
      switch (outcome.outcome) {
        case 'reset':
          return { ok: true, email: user.email };
        case 'used':
          throw conflict(USED_RESET_LINK);
        case 'expired':
          throw badRequest(EXPIRED_RESET_LINK, { token: EXPIRED_RESET_LINK });
        case 'superseded':
          throw superseded();
        case 'unknown':
        case 'user-gone':
          throw badRequest(INVALID_RESET_LINK, { token: INVALID_RESET_LINK });
      }
    },
  };
}
