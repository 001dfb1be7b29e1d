import { SignJWT } from 'jose';
import { getCommissionsByUser } from '@portal/shared/api/calls/get-commissions-by-user';
import { getOrdersNotShipped } from '@portal/shared/api/calls/get-orders-not-shipped';
import { beforeAll, describe, expect, it } from 'vitest';
import { dynamoUsers } from '../../functions/src/adapters/auth/dynamo-users';
import { handler as logout } from '../../functions/src/handlers/logout';
import { handler as signup } from '../../functions/src/handlers/signup';
import { apiHandler, publicApiHandler } from '../../functions/src/composition';
import { SESSION_EXPIRED } from '../../functions/src/http/api-handler';
import { call } from './helpers';

/**
 * The authentication and role check every non-public call goes through, exercised with
 * handlers built exactly as the real ones are: `apiHandler(<contract module>, decide)`.
 * getCommisionsByUser is a member call and getOrdersNotShipped an admin call in the contract;
 * their decide notes who called and answers an empty page (the answer its contract names).
 */
const seen: string[] = [];
const emptyPage = { items: [], nextCursor: null };
const memberCall = apiHandler(getCommissionsByUser, async ({ user }) => {
  seen.push(user!.id);
  return { ...emptyPage, totals: { paid: 0, processing: 0, count: 0 } };
});
const adminCall = apiHandler(getOrdersNotShipped, async ({ user }) => {
  seen.push(user!.id);
  return { ...emptyPage, counters: { all: 0, notOrdered: 0, notShipped: 0, notFulfilled: 0 } };
});

/** A body the member call accepts (IdRequest). */
const memberBody = { id: 'any' };

const key = () => new TextEncoder().encode(process.env.TOKEN_SIGNING_KEY);
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

let member: { id: string; email: string; accessToken: string };

beforeAll(async () => {
  const email = `authz-${Date.now()}@example.com`;
  const result = await call(signup, { body: { email, password: 'long enough password' } });
  const profile = result.body.userProfile as { id: string };
  member = {
    id: profile.id,
    email,
    accessToken: String(result.body.access_token),
  };
});

/** The key id a JWT names in its header. */
const kidOf = (token: string): string | undefined =>
  (JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as { kid?: string }).kid;

/** The claims of a JWT, read without checking its signature. */
const payloadOf = (token: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

function claims(overrides: { sub?: string; sid?: string } = {}) {
  const decoded = payloadOf(member.accessToken) as { sub: string; sid: string };
  return { sub: overrides.sub ?? decoded.sub, sid: overrides.sid ?? decoded.sid };
}

describe('access tokens', () => {
  it('are JWTs valid for at most 15 minutes, naming the version of the key that signed them', () => {
    expect(kidOf(member.accessToken)).toMatch(/^local-[0-9a-f]{16}$/);
    const { iat, exp, iss, aud } = payloadOf(member.accessToken);
    expect(Number(exp) - Number(iat)).toBeLessThanOrEqual(15 * 60);
    expect(iss).toBe('reseller-portal');
    expect(aud).toBe('reseller-portal-api');
  });

  it('let a member call a member call', async () => {
    const result = await call(memberCall, { body: memberBody, headers: bearer(member.accessToken) });
    expect(result.status).toBe(200);
    expect(seen.at(-1)).toBe(member.id);
  });

  it('are required: no Authorization header is a 401 with a JSON message', async () => {
    const result = await call(memberCall, { body: memberBody });
    expect(result.status).toBe(401);
    expect(result.body.message).toMatch(/access token/);
    expect(result.headers['content-type']).toMatch(/application\/json/);
  });

  const forgeries: [string, () => Promise<string>][] = [
    ['signed with another key', () => sign(claims(), new TextEncoder().encode('x'.repeat(48)))],
    ['expired', () => sign(claims(), key(), { exp: Math.floor(Date.now() / 1000) - 60 })],
    ['issued more than 15 minutes ago', () => sign(claims(), key(), { iat: Math.floor(Date.now() / 1000) - 16 * 60 })],
    ['for another audience', () => sign(claims(), key(), { aud: 'someone-else' })],
    ['from another issuer', () => sign(claims(), key(), { iss: 'someone-else' })],
    ['with alg none', async () => unsigned(claims())],
    ['with a tampered payload', async () => tamper(member.accessToken)],
    ['that is not a JWT at all', async () => 'not-a-token'],
  ];

  it.each(forgeries)('refuse a token %s with 401', async (_name, make) => {
    const result = await call(memberCall, { body: memberBody, headers: bearer(await make()) });
    expect(result.status).toBe(401);
    expect(result.body.message).toBe(SESSION_EXPIRED);
  });

  describe('name a session', () => {
    let other: { sid: string; token: string };
    beforeAll(async () => {
      const result = await call(signup, {
        body: { email: `authz-other-${Date.now()}@example.com`, password: 'long enough password' },
      });
      const token = String(result.body.access_token);
      other = { token, sid: String(payloadOf(token).sid) };
    });

    it('works with its own, and another user with their own', async () => {
      expect((await call(memberCall, { body: memberBody, headers: bearer(await sign(claims(), key())) })).status).toBe(
        200,
      );
      expect((await call(memberCall, { body: memberBody, headers: bearer(other.token) })).status).toBe(200);
    });

    const sessions: [string, () => Promise<string>][] = [
      ["of another user (a live session, someone else's)", () => sign(claims({ sid: other.sid }), key())],
      ['that does not exist', () => sign(claims({ sid: 'f'.repeat(32) }), key())],
      ['with no session id at all', () => sign({ sub: claims().sub }, key())],
    ];

    it.each(sessions)('refuse a well-signed token naming a session %s with 401', async (_name, make) => {
      const before = seen.length;
      const result = await call(memberCall, { body: memberBody, headers: bearer(await make()) });
      expect(result.status).toBe(401);
      expect(result.body.message).toBe(SESSION_EXPIRED);
      expect(seen.length).toBe(before);
    });
  });

  it('stop working when the session is logged out', async () => {
    const email = `authz-out-${Date.now()}@example.com`;
    const result = await call(signup, { body: { email, password: 'long enough password' } });
    const token = String(result.body.access_token);
    expect((await call(memberCall, { body: memberBody, headers: bearer(token) })).status).toBe(200);
    await call(logout, { body: { refresh_token: result.body.refresh_token } });
    expect((await call(memberCall, { body: memberBody, headers: bearer(token) })).status).toBe(401);
  });
});

describe('roles', () => {
  it('answer 403 to a member calling an admin call', async () => {
    const result = await call(adminCall, { body: {}, headers: bearer(member.accessToken) });
    expect(result.status).toBe(403);
    expect(result.body.message).toBe('This is for administrators only.');
  });

  it('come from the stored user on every call, not from the token', async () => {
    await dynamoUsers.setAdmin(member.id, true);
    expect((await call(adminCall, { body: {}, headers: bearer(member.accessToken) })).status).toBe(200);
    await dynamoUsers.setAdmin(member.id, false);
    expect((await call(adminCall, { body: {}, headers: bearer(member.accessToken) })).status).toBe(403);
  });

  it('are checked before the body is validated or the handler runs', async () => {
    const before = seen.length;
    const result = await call(adminCall, { body: { unexpected: 1 } });
    expect(result.status).toBe(401);
    expect(seen.length).toBe(before);
  });
});

async function sign(
  payload: { sub: string; sid?: string },
  secret: Uint8Array,
  overrides: { exp?: number; iat?: number; aud?: string; iss?: string } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return (
    new SignJWT(payload.sid === undefined ? {} : { sid: payload.sid })
      // The key's version, as the tokens the portal issues name it (tokens.ts: `kid`).
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: kidOf(member.accessToken) })
      .setSubject(payload.sub)
      .setIssuer(overrides.iss ?? 'reseller-portal')
      .setAudience(overrides.aud ?? 'reseller-portal-api')
      .setIssuedAt(overrides.iat ?? now)
      .setExpirationTime(overrides.exp ?? now + 600)
      .sign(secret)
  );
}

function unsigned(payload: { sub: string; sid: string }): string {
  const now = Math.floor(Date.now() / 1000);
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const body = { ...payload, iss: 'reseller-portal', aud: 'reseller-portal-api', iat: now, exp: now + 600 };
  return `${encode({ alg: 'none', typ: 'JWT' })}.${encode(body)}.`;
}

function tamper(token: string): string {
  const [header, , signature] = token.split('.');
  const decoded = payloadOf(token);
  decoded.sub = 'someone-else';
  return `${header}.${Buffer.from(JSON.stringify(decoded)).toString('base64url')}.${signature}`;
}

describe('publicApiHandler', () => {
  it('builds only public calls, so a member or admin call can never lose its check', () => {
    expect(() => publicApiHandler(getOrdersNotShipped, async () => ({}) as never)).toThrow(
      'getOrdersNotShipped: admin calls need apiHandler',
    );
    expect(() => publicApiHandler(getCommissionsByUser, async () => ({}) as never)).toThrow(
      'getCommisionsByUser: member calls need apiHandler',
    );
  });
});
