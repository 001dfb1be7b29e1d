import { describe, expect, it, vi } from 'vitest';
import { clock } from '../../functions/src/config/clock';
import { hashCost } from '../../functions/src/auth/passwords';
import { LIMITS, SIGNUP_LIMIT, SIGNUP_WINDOW_MS, WINDOW_MS } from '../../functions/src/auth/rate-limit';
import { PASSWORD_IS_BLANK, PASSWORD_IS_COMMON, PASSWORD_IS_EMAIL } from '../../shared/src/api/schemas';
import { handler as checkAuth } from '../../functions/src/handlers/check-auth';
import { handler as login, LOGIN_FAILED } from '../../functions/src/handlers/login';
import { handler as logout } from '../../functions/src/handlers/logout';
import { ALREADY_REGISTERED, handler as signup } from '../../functions/src/handlers/signup';
import { ROTATION_GRACE_MS, SESSION_ENDED, SESSION_REUSED } from '../../functions/src/auth/sessions';
import { REFRESH_TOKEN_SECONDS } from '../../functions/src/auth/tokens';
import { allItems, call, cookieFrom, uniqueEmail, uniqueIp } from './helpers';

const password = 'correct horse battery';

/** The claims of a JWT, read without checking its signature. */
const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sub: string; sid: string };

async function signupAs(email = uniqueEmail()) {
  const result = await call(signup, { body: { email, password } });
  expect(result.status).toBe(200);
  return { email, result };
}

describe('signup', () => {
  it('creates a member, answers the spec fields plus an access token, and sets the refresh cookie', async () => {
    const { email, result } = await signupAs();
    expect(result.body).toMatchObject({ loginValid: true, isLoggedIn: true, isAdmin: false });
    expect(result.body.userProfile).toMatchObject({
      email,
      isAccountCreated: 0,
      isPayoutMethodAdded: 0,
      isAdmin: false,
    });
    expect(result.body.userProfile).not.toHaveProperty('passwordHash');
    expect(typeof result.body.access_token).toBe('string');
    expect(result.body.access_token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const cookie = result.cookies.find((c) => c.startsWith('refresh_token='))!;
    expect(cookie).toContain(`refresh_token=${String(result.body.refresh_token)}`);
    for (const attribute of ['HttpOnly', 'Secure', 'SameSite=Strict', 'Path=/api']) expect(cookie).toContain(attribute);
  });

  it('stores the password only as an scrypt hash and the refresh token only as its SHA-256', async () => {
    const { result } = await signupAs();
    const items = await allItems();
    const user = items.find(
      (item) => item.entity === 'User' && item.id === (result.body.userProfile as { id: string }).id,
    )!;
    // The cost is the test run's (functions/src/auth/passwords.test.ts pins production's 2^17).
    expect(String(user.passwordHash)).toMatch(new RegExp(`^scrypt\\$${hashCost()}\\$8\\$1\\$`));
    expect(JSON.stringify(items)).not.toContain(password);
    expect(JSON.stringify(items)).not.toContain(String(result.body.refresh_token));
  });

  it('normalizes the e-mail: case and surrounding spaces make no second account', async () => {
    const base = uniqueEmail('Ann');
    const first = await call(signup, { body: { email: `  ${base.toUpperCase()} `, password } });
    expect(first.status).toBe(200);
    expect((first.body.userProfile as { email: string }).email).toBe(base.toLowerCase());
    const second = await call(signup, { body: { email: base.toLowerCase(), password } });
    expect(second.status).toBe(409);
    expect(second.body.message).toBe(ALREADY_REGISTERED);
  });

  it('of two sign-ups for one e-mail at the same moment, makes exactly one account', async () => {
    const email = uniqueEmail('race');
    const results = await Promise.all([0, 1, 2].map(() => call(signup, { body: { email, password } })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const users = (await allItems()).filter((item) => item.entity === 'User' && item.email === email);
    expect(users).toHaveLength(1);
  });

  it('requires 8 to 128 characters of password', async () => {
    const tooShort = await call(signup, { body: { email: uniqueEmail(), password: 'x'.repeat(7) } });
    expect(tooShort.status).toBe(400);
    expect(tooShort.body.fields).toEqual({ password: 'The password must be at least 8 characters.' });
    const tooLong = await call(signup, { body: { email: uniqueEmail(), password: 'x'.repeat(129) } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.fields).toEqual({ password: 'The password must be at most 128 characters.' });
    expect((await call(signup, { body: { email: uniqueEmail(), password: 'x'.repeat(8) } })).status).toBe(200);
    expect((await call(signup, { body: { email: uniqueEmail(), password: 'x'.repeat(128) } })).status).toBe(200);
  });
});

describe('signup refuses passwords that are easy to guess, in words, before hashing anything', () => {
  const cases: [string, (email: string) => string, string][] = [
    ['a leaked password', () => 'password', PASSWORD_IS_COMMON],
    ['a leaked password of digits', () => '12345678', PASSWORD_IS_COMMON],
    ['a leaked password in other case and spaces', () => ' Password1 ', PASSWORD_IS_COMMON],
    ['eight spaces', () => ' '.repeat(8), PASSWORD_IS_BLANK],
    ['only white space of any kind', () => ' \t\n \u00a0  \t ', PASSWORD_IS_BLANK],
    ['the e-mail address', (email) => email, PASSWORD_IS_EMAIL],
    ['the e-mail address in capitals', (email) => email.toUpperCase(), PASSWORD_IS_EMAIL],
    ['the part of the e-mail before the @', (email) => email.split('@')[0]!, PASSWORD_IS_EMAIL],
  ];

  it.each(cases)('%s', async (_name, choose, message) => {
    const email = uniqueEmail('chooser');
    const before = await allItems();
    const result = await call(signup, { body: { email, password: choose(email) } });
    expect(result.status).toBe(400);
    expect(result.body.fields).toEqual({ password: message });
    expect(result.body.message).toContain(message);
    expect(await allItems()).toEqual(before);
  });
});

describe('signup throttling per address', () => {
  it(`counts sign-ups before hashing: of 12 parallel ones from one address, ${SIGNUP_LIMIT} make accounts; an hour later the address may sign up again (injected clock)`, async () => {
    const address = uniqueIp();
    const emails = Array.from({ length: SIGNUP_LIMIT + 2 }, () => uniqueEmail('burst'));
    const results = await Promise.all(
      emails.map((email) => call(signup, { body: { email, password }, sourceIp: address })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(SIGNUP_LIMIT);
    const refused = results.filter((r) => r.status === 429);
    expect(refused).toHaveLength(2);
    expect(refused[0]!.body.message).toMatch(/^Too many attempts\. Try again in \d+ minutes?\.$/);
    const made = (await allItems()).filter((item) => item.entity === 'User' && emails.includes(String(item.email)));
    expect(made).toHaveLength(SIGNUP_LIMIT);
    // Another address is not affected; this one is, until its window ends.
    expect((await call(signup, { body: { email: uniqueEmail(), password }, sourceIp: uniqueIp() })).status).toBe(200);
    const now = vi.spyOn(clock, 'now').mockReturnValue(Date.now() + SIGNUP_WINDOW_MS - 60_000);
    try {
      expect((await call(signup, { body: { email: uniqueEmail(), password }, sourceIp: address })).status).toBe(429);
      now.mockReturnValue(Date.now() + SIGNUP_WINDOW_MS + 60_000);
      expect((await call(signup, { body: { email: uniqueEmail(), password }, sourceIp: address })).status).toBe(200);
    } finally {
      now.mockRestore();
    }
  });
});

describe('bad input is refused with a message naming the problem, and writes nothing', () => {
  const cases: [string, Parameters<typeof call>[1], RegExp, Record<string, string>?][] = [
    ['malformed JSON', { rawBody: '{"email": "a@example.com",' }, /not valid JSON/],
    [
      'a wrong content type',
      { rawBody: 'email=a@example.com', contentType: 'application/x-www-form-urlencoded' },
      /Content-Type: application\/json/,
    ],
    ['a body over 1 MB', { body: { email: 'a@example.com', password: 'x'.repeat(1024 * 1024) } }, /larger than 1 MB/],
    [
      'an unknown field',
      { body: { email: uniqueEmail(), password, isAdmin: true } },
      /isAdmin/,
      { isAdmin: 'Unknown field: remove it.' },
    ],
    [
      'a missing field',
      { body: { email: uniqueEmail() } },
      /password: The password is required\./,
      { password: 'The password is required.' },
    ],
    [
      'a malformed e-mail',
      { body: { email: 'not-an-email', password } },
      /email/,
      { email: 'The e-mail address must be a valid e-mail address.' },
    ],
    ['a body that is not an object', { body: ['a@example.com'] }, /body/],
  ];

  it.each(cases)('%s', async (_name, options, message, fields) => {
    const before = await allItems();
    const result = await call(signup, options);
    expect(result.status).toBe(400);
    expect(result.body.message).toMatch(message);
    if (fields) expect(result.body.fields).toEqual(fields);
    expect(await allItems()).toEqual(before);
  });
});

describe('login', () => {
  it('answers loginValid, the profile and a fresh session for the right password', async () => {
    const { email } = await signupAs();
    const result = await call(login, { body: { email: email.toUpperCase(), password }, sourceIp: uniqueIp() });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ loginValid: true, isLoggedIn: true, isAdmin: false });
    expect(cookieFrom(result)).toMatch(/^refresh_token=.+/);
  });

  it('answers an unknown e-mail and a wrong password in the same words, with loginValid: false as the spec does', async () => {
    const { email } = await signupAs();
    const wrong = await call(login, { body: { email, password: 'wrong password' }, sourceIp: uniqueIp() });
    const unknown = await call(login, { body: { email: uniqueEmail('nobody'), password }, sourceIp: uniqueIp() });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ message: LOGIN_FAILED, loginValid: false });
    expect(unknown.body).toEqual(wrong.body);
  });

  it('counts each attempt before the password check: of 12 parallel tries from one address, the last one right, at most 5 reach the check and none logs in after the limit', async () => {
    const { email } = await signupAs();
    const address = uniqueIp();
    const tries = [...Array.from({ length: 11 }, (_, i) => `wrong guess ${i}`), password];
    const results = await Promise.all(
      tries.map((guess) => call(login, { body: { email, password: guess }, sourceIp: address })),
    );
    const checked = results.filter((r) => r.status !== 429);
    expect(checked.length).toBeLessThanOrEqual(LIMITS.pair);
    expect(results.filter((r) => r.status === 429)).toHaveLength(tries.length - checked.length);
    for (const result of checked) expect([200, 401]).toContain(result.status);
    const right = results.at(-1)!;
    if (right.status === 200) return; // the right password was one of the counted tries: a login, as it should be
    // The right password came after the limit: refused, and so it is now, saying when to retry.
    expect(right.status).toBe(429);
    const after = await call(login, { body: { email, password }, sourceIp: address });
    expect(after.status).toBe(429);
    expect(after.body.message).toMatch(/^Too many attempts\. Try again in 1[45] minutes\.$/);
    expect(Number(after.headers['retry-after'])).toBeGreaterThan(800);
    expect(Number(after.headers['retry-after'])).toBeLessThanOrEqual(900);
  });

  it("does not let anyone lock the owner out: 5 wrong passwords from address A, and the owner's password from B logs in", async () => {
    const { email } = await signupAs();
    const attacker = uniqueIp();
    const failed = await Promise.all(
      [0, 1, 2, 3, 4].map((i) => call(login, { body: { email, password: `guess ${i}` }, sourceIp: attacker })),
    );
    expect(failed.map((r) => r.status)).toEqual([401, 401, 401, 401, 401]);
    expect((await call(login, { body: { email, password }, sourceIp: attacker })).status).toBe(429);
    expect((await call(login, { body: { email, password }, sourceIp: uniqueIp() })).status).toBe(200);
  });

  it('ends the (account, address) window 15 minutes after its first attempt (injected clock)', async () => {
    const { email } = await signupAs();
    const address = uniqueIp();
    const start = Date.now();
    const now = vi.spyOn(clock, 'now').mockReturnValue(start);
    try {
      await Promise.all(
        [0, 1, 2, 3, 4].map((i) => call(login, { body: { email, password: `guess ${i}` }, sourceIp: address })),
      );
      now.mockReturnValue(start + WINDOW_MS - 1000);
      const refused = await call(login, { body: { email, password }, sourceIp: address });
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('1');
      now.mockReturnValue(start + WINDOW_MS);
      expect((await call(login, { body: { email, password }, sourceIp: address })).status).toBe(200);
    } finally {
      now.mockRestore();
    }
  });

  it('counts failures per pair: four failures and then the right password still logs in and clears them', async () => {
    const { email } = await signupAs();
    const address = uniqueIp();
    for (let round = 0; round < 2; round++) {
      const failed = await Promise.all(
        [0, 1, 2, 3].map(() => call(login, { body: { email, password: 'nope nope' }, sourceIp: address })),
      );
      expect(failed.map((r) => r.status)).toEqual([401, 401, 401, 401]);
      expect((await call(login, { body: { email, password }, sourceIp: address })).status).toBe(200);
    }
  });

  it(
    'holds the address limit under concurrency: of 24 parallel tries across accounts, 20 reach the check',
    { timeout: 90_000 },
    async () => {
      const address = uniqueIp();
      const { email } = await signupAs();
      const results = await Promise.all(
        Array.from({ length: LIMITS.address + 4 }, () =>
          call(login, { body: { email: uniqueEmail('spray'), password }, sourceIp: address }),
        ),
      );
      expect(results.filter((r) => r.status === 401)).toHaveLength(LIMITS.address);
      expect(results.filter((r) => r.status === 429)).toHaveLength(4);
      const blocked = await call(login, { body: { email, password }, sourceIp: address });
      expect(blocked.status).toBe(429);
      expect(blocked.body.message).toMatch(/^Too many attempts\. Try again in \d+ minutes?\.$/);
      // The same account from another address is still allowed.
      expect((await call(login, { body: { email, password }, sourceIp: uniqueIp() })).status).toBe(200);
    },
  );
});

describe('checkAuth and refresh-token rotation', () => {
  it('exchanges the cookie for a new refresh token, a fresh access token and the profile', async () => {
    const { email, result } = await signupAs();
    const checked = await call(checkAuth, { body: {}, cookies: [cookieFrom(result)] });
    expect(checked.status).toBe(200);
    expect(checked.body).toMatchObject({ isLoggedIn: true, isAdmin: false, userProfile: { email } });
    expect(checked.body.refresh_token).not.toBe(result.body.refresh_token);
    expect(cookieFrom(checked)).toBe(`refresh_token=${String(checked.body.refresh_token)}`);
    expect(typeof checked.body.access_token).toBe('string');
  });

  it('accepts the refresh token in the body, as the spec sends it', async () => {
    const { result } = await signupAs();
    const checked = await call(checkAuth, { body: { refresh_token: result.body.refresh_token } });
    expect(checked.status).toBe(200);
  });

  it('answers every tab that presents one token at once with the same new pair: 3 parallel checkAuth all 200', async () => {
    const { result } = await signupAs();
    const tabs = await Promise.all([0, 1, 2].map(() => call(checkAuth, { body: {}, cookies: [cookieFrom(result)] })));
    expect(tabs.map((r) => r.status)).toEqual([200, 200, 200]);
    const cookies = new Set(tabs.map(cookieFrom));
    expect(cookies.size).toBe(1);
    expect([...cookies][0]).not.toBe(cookieFrom(result));
    // Each tab gets an access token for the same session family.
    const sids = new Set(tabs.map((r) => claimsOf(String(r.body.access_token)).sid));
    expect(sids).toEqual(new Set([claimsOf(String(result.body.access_token)).sid]));
    // The successor is never stored in clear.
    expect(JSON.stringify(await allItems())).not.toContain(String(tabs[0]!.body.refresh_token));
    // The new token works, and the session goes on.
    expect((await call(checkAuth, { body: {}, cookies: [[...cookies][0]!] })).status).toBe(200);
  });

  it('within the grace window, answers a rotated token again with the same successor (injected clock)', async () => {
    const { result } = await signupAs();
    const start = Date.now();
    const now = vi.spyOn(clock, 'now').mockReturnValue(start);
    try {
      const first = await call(checkAuth, { body: { refresh_token: result.body.refresh_token } });
      now.mockReturnValue(start + ROTATION_GRACE_MS);
      const again = await call(checkAuth, { body: { refresh_token: result.body.refresh_token } });
      expect(again.status).toBe(200);
      expect(again.body.refresh_token).toBe(first.body.refresh_token);
    } finally {
      now.mockRestore();
    }
  });

  it('treats a use of a rotated token after the grace window as theft: 401, and the whole family is revoked (injected clock)', async () => {
    const { result } = await signupAs();
    const start = Date.now();
    const now = vi.spyOn(clock, 'now').mockReturnValue(start);
    try {
      const first = await call(checkAuth, { body: { refresh_token: result.body.refresh_token } });
      expect(first.status).toBe(200);
      now.mockReturnValue(start + ROTATION_GRACE_MS + 1);
      const replay = await call(checkAuth, { body: { refresh_token: result.body.refresh_token } });
      expect(replay.status).toBe(401);
      expect(replay.body.message).toBe(SESSION_REUSED);
      expect(replay.cookies.some((c) => c.startsWith('refresh_token=;') && c.includes('Max-Age=0'))).toBe(true);
      // The token the legitimate holder got is dead too, and so is its access token.
      const next = await call(checkAuth, { body: { refresh_token: first.body.refresh_token } });
      expect(next.status).toBe(401);
      const family = (await allItems()).find(
        (item) => item.entity === 'SessionFamily' && item.familyId === claimsOf(String(first.body.access_token)).sid,
      );
      expect(family?.revokedAt).toBe(new Date(start + ROTATION_GRACE_MS + 1).toISOString());
    } finally {
      now.mockRestore();
    }
  });

  it('refuses a refresh token once it has expired, 14 days after it was issued (injected clock)', async () => {
    const start = Date.now();
    const now = vi.spyOn(clock, 'now').mockReturnValue(start);
    try {
      const [kept, left] = [await signupAs(), await signupAs()];
      now.mockReturnValue(start + REFRESH_TOKEN_SECONDS * 1000 - 1000);
      expect((await call(checkAuth, { body: {}, cookies: [cookieFrom(kept.result)] })).status).toBe(200);
      now.mockReturnValue(start + REFRESH_TOKEN_SECONDS * 1000 + 1000);
      const late = await call(checkAuth, { body: {}, cookies: [cookieFrom(left.result)] });
      expect(late.status).toBe(401);
      expect(late.body.message).toBe(SESSION_ENDED);
    } finally {
      now.mockRestore();
    }
  });

  it('answers a visitor with no refresh token logged out (200, no error); refuses an unknown one with 401', async () => {
    const missing = await call(checkAuth, { body: {} });
    expect(missing.status).toBe(200);
    expect(missing.body).toEqual({ loginValid: false, isLoggedIn: false });
    const unknown = await call(checkAuth, { body: { refresh_token: 'made-up' } });
    expect(unknown.status).toBe(401);
  });

  it('a new login is a separate family: revoking one session leaves the other', async () => {
    const { email, result } = await signupAs();
    const other = await call(login, { body: { email, password }, sourceIp: uniqueIp() });
    await call(logout, { body: { refresh_token: result.body.refresh_token } });
    expect((await call(checkAuth, { body: { refresh_token: other.body.refresh_token } })).status).toBe(200);
  });
});

describe('logout', () => {
  it('revokes the session and clears the cookie', async () => {
    const { result } = await signupAs();
    const out = await call(logout, { body: {}, cookies: [cookieFrom(result)] });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ ok: true });
    expect(out.cookies[0]).toMatch(/^refresh_token=;.*Max-Age=0/);
    expect((await call(checkAuth, { body: {}, cookies: [cookieFrom(result)] })).status).toBe(401);
  });

  it('with only an access token, ends the session family it names', async () => {
    const { result } = await signupAs();
    const out = await call(logout, {
      body: {},
      headers: { authorization: `Bearer ${String(result.body.access_token)}` },
    });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ ok: true });
    const family = (await allItems()).find(
      (item) => item.entity === 'SessionFamily' && item.familyId === claimsOf(String(result.body.access_token)).sid,
    );
    expect(family?.revokedAt).toEqual(expect.any(String));
    expect((await call(checkAuth, { body: {}, cookies: [cookieFrom(result)] })).status).toBe(401);
  });

  it('ends nothing for an access token that does not verify', async () => {
    const { result } = await signupAs();
    const [header, payload] = String(result.body.access_token).split('.');
    const forged = `${header}.${payload}.${'A'.repeat(43)}`;
    expect((await call(logout, { body: {}, headers: { authorization: `Bearer ${forged}` } })).status).toBe(200);
    expect((await call(checkAuth, { body: {}, cookies: [cookieFrom(result)] })).status).toBe(200);
  });

  it('answers ok without a session, so logging out twice is harmless', async () => {
    expect((await call(logout, { body: {} })).status).toBe(200);
  });
});
