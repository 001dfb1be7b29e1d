import { createHash, randomBytes } from 'node:crypto';
import {
  EXPIRED_VERIFICATION_LINK,
  INVALID_VERIFICATION_LINK,
  SUPERSEDED_VERIFICATION_LINK,
  USED_VERIFICATION_LINK,
} from '@portal/shared/api/email';
import type { AttemptKind, AttemptStore, Counted } from '../auth/attempt-store';
import type { UserRecord } from '../auth/user-store';
import { DomainError, badRequest, conflict } from '../errors';
import type { Mailer, OutgoingMail } from './mailer';
import { addressInUseMail, escapeHtml } from './templates';
import type { VerificationStore } from './verification-store';

/**
 * E-mail verification (docs/architecture.md#other-capabilities, decision 0026):
 *
 * - a link carries 32 random bytes (base64url); the table keeps only their SHA-256, with the
 *   user, the address and an expiry 24 hours out (checked on use; TTL deletes the item later);
 * - a link is single-use: verifying marks it used in the same conditional transaction that sets
 *   isEmailVerified, so two clicks at once verify once and the second is told it was used;
 * - a newer link does not invalidate older ones: each is bound to the address it was sent to and
 *   expires on its own, and at most RESEND_LIMITS.perDay exist a day, so a member who clicks the
 *   first mail that arrives is not refused; but a change of the password or the e-mail address
 *   does: a link records the account's link generation and works only while it is unchanged
 *   (decision 0240);
 * - sending is rate-limited per user (one a minute, five a day, the sign-up's first link
 *   included), counted by a conditional write BEFORE the mail goes out, so parallel requests get
 *   one mail.
 */
export const LINK_VALID_MS = 24 * 60 * 60 * 1000;
export const VERIFY_PATH = '/verify_email';
export const LOGIN_PATH = '/login';
export const RESEND_LIMITS = {
  perMinute: { count: 1, windowMs: 60 * 1000 },
  perDay: { count: 5, windowMs: 24 * 60 * 60 * 1000 },
} as const;

export const ALREADY_VERIFIED = 'Your e-mail address is already verified.';
export const ADDRESS_TAKEN = 'This e-mail address is already registered to another account. Choose another address.';
export const SAME_ADDRESS = 'This is already the e-mail address of your account.';
export const ADDRESS_CHANGED =
  'This link was sent to an address that is no longer the one on your account. Ask for a new link from My Profile.';

export interface VerificationDeps {
  store: VerificationStore;
  attempts: AttemptStore;
  mailer: Mailer;
  now: () => number;
  /** The portal's origin for the link (SITE_URL), e.g. https://d123.cloudfront.net. */
  siteUrl: () => string;
}

export const hashVerificationToken = (token: string): string => createHash('sha256').update(token).digest('hex');

function waitFor(retryAfterMs: number): string {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  if (seconds < 120) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 120) return `${minutes} minutes`;
  return `${Math.ceil(minutes / 60)} hours`;
}

export function tooManyLinks(retryAfterMs: number, daily: boolean): DomainError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  const why = daily
    ? `You have asked for ${RESEND_LIMITS.perDay.count} links today.`
    : 'We sent you a link a moment ago: check your inbox and spam folder.';
  return new DomainError('too-many-requests', `${why} You can ask for another link in ${waitFor(retryAfterMs)}.`, {
    headers: { 'retry-after': String(seconds) },
  });
}

export function verificationMail(to: string, url: string): OutgoingMail {
  const escaped = escapeHtml(url);
  return {
    to,
    subject: 'Verify your e-mail address for the Reseller Portal',
    text: [
      'Hello,',
      '',
      'Open this link to verify your e-mail address for the Reseller Portal:',
      url,
      '',
      'The link works once and expires in 24 hours. If you did not sign up, ignore this e-mail.',
    ].join('\n'),
    html: [
      '<!doctype html><html><body style="font-family:sans-serif">',
      '<p>Hello,</p>',
      '<p>Open this link to verify your e-mail address for the Reseller Portal:</p>',
      `<p><a href="${escaped}">Verify my e-mail address</a></p>`,
      `<p style="color:#555">Or copy this address into your browser: ${escaped}</p>`,
      '<p style="color:#555">The link works once and expires in 24 hours. If you did not sign up, ignore this e-mail.</p>',
      '</body></html>',
    ].join('\n'),
    link: { label: 'Verification link', url },
  };
}

/** The mail of a change of address: to the new address, which becomes the login once its link is opened. */
export function changeMail(to: string, from: string, url: string): OutgoingMail {
  const lines = [
    `Someone (we hope you) asked to change the e-mail address of a Reseller Portal account from ${from} to this address.`,
    'Open this link to confirm; until you do, the old address stays the login:',
  ];
  const after = 'The link works once and expires in 24 hours. If you did not ask for this, ignore this e-mail.';
  return {
    to,
    subject: 'Confirm your new e-mail address for the Reseller Portal',
    text: ['Hello,', '', ...lines, url, '', after].join('\n'),
    html: [
      '<!doctype html><html><body style="font-family:sans-serif">',
      '<p>Hello,</p>',
      ...lines.map((line) => `<p>${escapeHtml(line)}</p>`),
      `<p><a href="${escapeHtml(url)}">Confirm my new e-mail address</a></p>`,
      `<p style="color:#555">Or copy this address into your browser: ${escapeHtml(url)}</p>`,
      `<p style="color:#555">${escapeHtml(after)}</p>`,
      '</body></html>',
    ].join('\n'),
    link: { label: 'E-mail change link', url },
  };
}

/** The notice to the old address once the change is made: it is no longer the login. */
export function changedNotice(to: string, newEmail: string): OutgoingMail {
  const masked = maskEmail(newEmail);
  const text = [
    'Hello,',
    '',
    `The e-mail address of your Reseller Portal account was changed to ${masked}. This address is no longer its login.`,
    '',
    'If you did not make this change, reply to this e-mail or contact the portal team at once.',
  ];
  return {
    to,
    subject: 'The e-mail address of your Reseller Portal account was changed',
    text: text.join('\n'),
    html: [
      '<!doctype html><html><body style="font-family:sans-serif">',
      ...text.filter(Boolean).map((line) => `<p>${escapeHtml(line)}</p>`),
      '</body></html>',
    ].join('\n'),
  };
}

/** "m•••@example.com": enough for the owner to recognise, not a whole address in an old mailbox. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${email.charAt(0)}•••${email.slice(at)}`;
}

export function createEmailVerification(deps: VerificationDeps) {
  const limits: [AttemptKind, { count: number; windowMs: number }][] = [
    ['verify-email-minute', RESEND_LIMITS.perMinute],
    ['verify-email-day', RESEND_LIMITS.perDay],
  ];

  return {
    /**
     * Sends a new link to the user's address, counted first: 429 while the user's minute or day
     * is used up. A mail that fails gives its count back (the user did not get it).
     */
    async send(user: UserRecord): Promise<{ email: string; nextAllowedInSeconds: number }> {
      if (user.isEmailVerified) throw conflict(ALREADY_VERIFIED);
      return sendLink(user, user.email, undefined, limits);
    },

    /**
     * Sends a link to `newEmail` that makes it the account's address once opened, counted in the
     * member's daily links (not the minute's: a member who signed up a moment ago may change the
     * address at once). The count comes before anything is read of the address, and the answer is
     * the same for a taken one (issue 35): its owner gets a notice instead of a link, so nobody
     * learns from the answer whether an address is registered. A link is refused at its use if
     * someone took the address meanwhile.
     */
    async sendChange(
      user: UserRecord,
      newEmail: string,
      isTaken: (email: string) => Promise<boolean>,
    ): Promise<{ email: string; nextAllowedInSeconds: number }> {
      if (newEmail === user.email) throw badRequest(SAME_ADDRESS, { email: SAME_ADDRESS });
      return sendLink(user, newEmail, user.email, limits.slice(1), isTaken);
    },

    /** Verifies the address a link was sent to; needs no session. */
    async verify(token: string): Promise<{ userId: string; email: string; replaced?: string }> {
      const result = await deps.store.consume(hashVerificationToken(token), deps.now());
      switch (result.outcome) {
        case 'verified':
          return {
            userId: result.record.userId,
            email: result.record.email,
            ...(result.record.replaces === undefined ? {} : { replaced: result.record.replaces }),
          };
        case 'used':
          throw conflict(USED_VERIFICATION_LINK);
        case 'expired':
          throw badRequest(EXPIRED_VERIFICATION_LINK, { token: EXPIRED_VERIFICATION_LINK });
        case 'address-changed':
          throw badRequest(ADDRESS_CHANGED, { token: ADDRESS_CHANGED });
        case 'superseded':
          throw badRequest(SUPERSEDED_VERIFICATION_LINK, { token: SUPERSEDED_VERIFICATION_LINK });
        case 'taken':
          throw conflict(ADDRESS_TAKEN);
        case 'unknown':
          throw badRequest(INVALID_VERIFICATION_LINK, { token: INVALID_VERIFICATION_LINK });
      }
    },
  };

  async function sendLink(
    user: UserRecord,
    to: string,
    replaces: string | undefined,
    applied: readonly [AttemptKind, { count: number; windowMs: number }][],
    isTaken?: (email: string) => Promise<boolean>,
  ): Promise<{ email: string; nextAllowedInSeconds: number }> {
    const now = deps.now();
    const counted: [AttemptKind, Counted][] = [];
    const giveBack = () =>
      Promise.all(counted.map(([kind, taken]) => deps.attempts.giveBack(kind, user.id, taken.windowStart)));
    for (const [kind, limit] of applied) {
      const taken = await deps.attempts.take(kind, user.id, limit.count, limit.windowMs, now);
      if (!taken.allowed) {
        await giveBack();
        throw tooManyLinks(taken.retryAfterMs, kind === 'verify-email-day');
      }
      counted.push([kind, taken]);
    }
    const answer = { email: to, nextAllowedInSeconds: Math.ceil(RESEND_LIMITS.perMinute.windowMs / 1000) };
    const token = randomBytes(32).toString('base64url');
    try {
      if (isTaken && (await isTaken(to))) {
        await deps.mailer.send(addressInUseMail(to, new URL(LOGIN_PATH, deps.siteUrl()).href));
        return answer;
      }
      await deps.store.save({
        tokenHash: hashVerificationToken(token),
        userId: user.id,
        email: to,
        ...(replaces === undefined ? {} : { replaces }),
        createdAt: now,
        expiresAtMs: now + LINK_VALID_MS,
        linkGeneration: user.linkGeneration ?? 0,
      });
      const url = new URL(VERIFY_PATH, deps.siteUrl());
      url.searchParams.set('token', token);
      await deps.mailer.send(
        replaces === undefined ? verificationMail(to, url.href) : changeMail(to, replaces, url.href),
      );
    } catch (error) {
      await giveBack().catch(() => undefined);
      throw error;
    }
    return answer;
  }
}

export type EmailVerification = ReturnType<typeof createEmailVerification>;
