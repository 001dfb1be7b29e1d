import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dynamoUsers } from '../../functions/src/adapters/auth/dynamo-users';
import { mailer } from '../../functions/src/composition';
import { clock } from '../../functions/src/config/clock';
import { LINK_VALID_MS, RESEND_LIMITS } from '../../functions/src/email/verification';
import { handler as checkAuth } from '../../functions/src/handlers/check-auth';
import { handler as signup } from '../../functions/src/handlers/signup';
import { handler as verifyEmail } from '../../functions/src/handlers/verify-email';
import {
  EXPIRED_VERIFICATION_LINK,
  INVALID_VERIFICATION_LINK,
  USED_VERIFICATION_LINK,
} from '../../shared/src/api/email';
import { allItems, auth, call, cookieFrom, uniqueEmail } from './helpers';
import { mailsTo, outbox, type StoredMail } from './outbox';

/**
 * /api/verifyEmail against DynamoDB Local, mail in this file's outbox folder (MAIL_OUTBOX_DIR,
 * test/handlers/setup.ts): send, verify, the single use, the expiry, the send limits.
 */
const tokenOf = (mail: StoredMail): string => new URL(mail.link!.url).searchParams.get('token')!;

async function member() {
  const email = uniqueEmail('verify');
  const result = await call(signup, { body: { email, password: 'long enough password' } });
  expect(result.status).toBe(200);
  return {
    email,
    id: (result.body.userProfile as { id: string }).id,
    token: String(result.body.access_token),
    cookie: cookieFrom(result),
  };
}

const verify = (token: string, headers: Record<string, string> = {}) =>
  call(verifyEmail, { body: { token }, headers, path: '/api/verifyEmail' });
const send = (accessToken: string) =>
  call(verifyEmail, { body: { action: 'send' }, headers: auth(accessToken), path: '/api/verifyEmail' });

afterEach(() => vi.restoreAllMocks());

describe('sign-up', () => {
  it('mails the first link: the outbox holds one file for the address, 0600 in a 0700 folder, with the link in text and HTML', async () => {
    const { email } = await member();
    const mails = mailsTo(email);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail!.link!.url).toMatch(/^http:\/\/127\.0\.0\.1:3999\/verify_email\?token=[A-Za-z0-9_-]{43}$/);
    expect(mail!.text).toContain(mail!.link!.url);
    expect(mail!.html).toContain(mail!.link!.url);
    expect(statSync(outbox()).mode & 0o777).toBe(0o700);
    for (const name of readdirSync(outbox())) expect(statSync(join(outbox(), name)).mode & 0o777).toBe(0o600);
  });

  it('still signs up when the mail fails, and gives the send back so the member may ask again at once', async () => {
    const failing = vi.spyOn(mailer, 'send').mockRejectedValueOnce(new Error('SES is down'));
    const { email, token } = await member();
    expect(failing).toHaveBeenCalledTimes(1);
    expect(mailsTo(email)).toHaveLength(0);
    expect((await send(token)).status).toBe(200);
    expect(mailsTo(email)).toHaveLength(1);
  });

  it('stores only the SHA-256 of the token, never the token', async () => {
    const { email } = await member();
    const token = tokenOf(mailsTo(email)[0]!);
    const items = JSON.stringify(await allItems());
    expect(items).not.toContain(token);
  });
});

describe('verifying a link', () => {
  it('verifies without a session: isEmailVerified becomes true, and the logged-in app sees it on checkAuth', async () => {
    const { email, id, cookie } = await member();
    expect((await dynamoUsers.get(id))!.isEmailVerified).toBe(false);
    const result = await verify(tokenOf(mailsTo(email)[0]!));
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ verified: true, email });
    expect((await dynamoUsers.get(id))!.isEmailVerified).toBe(true);
    const refreshed = await call(checkAuth, { body: {}, cookies: [cookie] });
    expect((refreshed.body.userProfile as { isEmailVerified: boolean }).isEmailVerified).toBe(true);
  });

  it('is single-use: the second click is a 409 saying so', async () => {
    const { email } = await member();
    const token = tokenOf(mailsTo(email)[0]!);
    expect((await verify(token)).status).toBe(200);
    const again = await verify(token);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(USED_VERIFICATION_LINK);
  });

  it('verifies once when two clicks arrive at once', async () => {
    const { email, id } = await member();
    const token = tokenOf(mailsTo(email)[0]!);
    const results = await Promise.all([verify(token), verify(token), verify(token)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect((await dynamoUsers.get(id))!.isEmailVerified).toBe(true);
  });

  it('refuses a link older than 24 hours (injected clock), and leaves the user unverified', async () => {
    const { email, id } = await member();
    const token = tokenOf(mailsTo(email)[0]!);
    vi.spyOn(clock, 'now').mockReturnValue(Date.now() + LINK_VALID_MS + 1000);
    const result = await verify(token);
    expect(result.status).toBe(400);
    expect(result.body.message).toBe(EXPIRED_VERIFICATION_LINK);
    expect((await dynamoUsers.get(id))!.isEmailVerified).toBe(false);
  });

  it('still accepts a link just before its 24 hours are up', async () => {
    const { email } = await member();
    const token = tokenOf(mailsTo(email)[0]!);
    vi.spyOn(clock, 'now').mockReturnValue(Date.now() + LINK_VALID_MS - 60_000);
    expect((await verify(token)).status).toBe(200);
  });

  it('answers 400 to a token that is unknown or malformed, and changes nothing', async () => {
    const before = await allItems();
    for (const body of [
      { token: 'A'.repeat(43) },
      { token: 'short' },
      { token: 'A'.repeat(42) + '=' },
      { action: 'verify' },
      { token: 42 },
    ]) {
      const result = await call(verifyEmail, { body, path: '/api/verifyEmail' });
      expect(result.status, JSON.stringify(body)).toBe(400);
      expect(result.body.message, JSON.stringify(body)).toContain(INVALID_VERIFICATION_LINK);
    }
    expect(await allItems()).toEqual(before);
  });

  it('a newer link does not invalidate an older one', async () => {
    const { email, token: accessToken } = await member();
    vi.spyOn(clock, 'now').mockReturnValue(Date.now() + RESEND_LIMITS.perMinute.windowMs + 1000);
    expect((await send(accessToken)).status).toBe(200);
    const [first, second] = mailsTo(email);
    expect(tokenOf(first!)).not.toBe(tokenOf(second!));
    expect((await verify(tokenOf(first!))).status).toBe(200);
  });
});

describe('sending a link', () => {
  it('needs a session: without one it is a 401, with a bad one too', async () => {
    const anonymous = await call(verifyEmail, { body: {}, path: '/api/verifyEmail' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.message).toBe('Log in to ask for a new verification link.');
    const bad = await call(verifyEmail, { body: {}, headers: auth('not.a.token'), path: '/api/verifyEmail' });
    expect(bad.status).toBe(401);
  });

  it('is refused within a minute of the last link (sign-up included) with a 429 a person can act on, then allowed', async () => {
    const { email, token } = await member();
    const early = await send(token);
    expect(early.status).toBe(429);
    expect(early.body.message).toMatch(/You can ask for another link in \d+ seconds?\./);
    expect(Number(early.headers['retry-after'])).toBeGreaterThan(0);
    expect(mailsTo(email)).toHaveLength(1);

    vi.spyOn(clock, 'now').mockReturnValue(Date.now() + RESEND_LIMITS.perMinute.windowMs + 1000);
    const later = await send(token);
    expect(later.status).toBe(200);
    expect(later.body).toEqual({ sent: true, email, nextAllowedInSeconds: 60 });
    expect(mailsTo(email)).toHaveLength(2);
  });

  it('sends exactly one mail for 10 requests at once', async () => {
    const { email, token } = await member();
    vi.spyOn(clock, 'now').mockReturnValue(Date.now() + RESEND_LIMITS.perMinute.windowMs + 1000);
    const results = await Promise.all(Array.from({ length: 10 }, () => send(token)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 429)).toHaveLength(9);
    expect(mailsTo(email)).toHaveLength(2); // sign-up's and this one
  });

  it(`sends at most ${RESEND_LIMITS.perDay.count} links a day (sign-up's first included), then says when`, async () => {
    const { email, token } = await member();
    const start = Date.now();
    const now = vi.spyOn(clock, 'now');
    for (let minute = 1; minute < RESEND_LIMITS.perDay.count; minute++) {
      now.mockReturnValue(start + minute * (RESEND_LIMITS.perMinute.windowMs + 1000));
      expect((await send(token)).status).toBe(200);
    }
    now.mockReturnValue(start + 10 * (RESEND_LIMITS.perMinute.windowMs + 1000));
    const refused = await send(token);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(
      /^You have asked for 5 links today\. You can ask for another link in \d+ hours\.$/,
    );
    expect(mailsTo(email)).toHaveLength(RESEND_LIMITS.perDay.count);
    now.mockReturnValue(start + RESEND_LIMITS.perDay.windowMs + 1000);
    expect((await send(token)).status).toBe(200);
  });

  it('is a 409 once the address is verified, and sends nothing', async () => {
    const { email, token } = await member();
    expect((await verify(tokenOf(mailsTo(email)[0]!))).status).toBe(200);
    vi.spyOn(clock, 'now').mockReturnValue(Date.now() + RESEND_LIMITS.perMinute.windowMs + 1000);
    const result = await send(token);
    expect(result.status).toBe(409);
    expect(result.body.message).toBe('Your e-mail address is already verified.');
    expect(mailsTo(email)).toHaveLength(1);
  });

  it("refuses a token together with action 'send'", async () => {
    const { token } = await member();
    const result = await call(verifyEmail, {
      body: { action: 'send', token: 'A'.repeat(43) },
      headers: auth(token),
      path: '/api/verifyEmail',
    });
    expect(result.status).toBe(400);
  });
});
