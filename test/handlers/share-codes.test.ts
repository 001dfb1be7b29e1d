import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../functions/src/adapters/dynamo-client';
import { dynamoUsers } from '../../functions/src/adapters/auth/dynamo-users';
import { hashPassword } from '../../functions/src/auth/passwords';
import { newId } from '../../functions/src/auth/tokens';
import { newUserRecord } from '../../functions/src/auth/user-store';
import { handler as checkAuth } from '../../functions/src/handlers/check-auth';
import { handler as login } from '../../functions/src/handlers/login';
import { handler as signup } from '../../functions/src/handlers/signup';
import { keys } from '../../shared/src/db/table';
import { allItems, call, cookieFrom, uniqueEmail } from './helpers';

/** Share codes: made at signup with the user, given lazily to users stored before, stable for life. */
const CROCKFORD_8 = /^[0-9A-HJKMNP-TV-Z]{8}$/;
const password = 'a long enough password';

const claimOf = async (code: string) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: keys.shareCode(code), ConsistentRead: true }))).Item;

describe('share codes', () => {
  it('are made at signup, claimed, and stay the same across logins and session checks', async () => {
    const email = uniqueEmail('code');
    const signed = await call(signup, { body: { email, password } });
    const profile = signed.body.userProfile as { id: string; shareCode: string };
    expect(profile.shareCode).toMatch(CROCKFORD_8);
    expect(await claimOf(profile.shareCode)).toMatchObject({ userId: profile.id });

    const loggedIn = await call(login, { body: { email, password } });
    expect((loggedIn.body.userProfile as { shareCode: string }).shareCode).toBe(profile.shareCode);
    const checked = await call(checkAuth, { cookies: [cookieFrom(loggedIn)] });
    expect(checked.status).toBe(200);
    expect((checked.body.userProfile as { shareCode: string }).shareCode).toBe(profile.shareCode);
  });

  it('are unique across members', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, () => call(signup, { body: { email: uniqueEmail('many'), password } })),
    );
    const codes = results.map((result) => (result.body.userProfile as { shareCode: string }).shareCode);
    expect(new Set(codes).size).toBe(codes.length);
    const claims = (await allItems()).filter((item) => item.entity === 'ShareCode');
    expect(new Set(claims.map((item) => item.pk)).size).toBe(claims.length);
  });

  it('are given once to a user stored before codes existed, however many checks run at once', async () => {
    const email = uniqueEmail('legacy');
    const user = { ...newUserRecord(newId(), email, await hashPassword(password), new Date()), shareCode: null };
    expect(await dynamoUsers.create(user)).toBe(true);
    expect((await dynamoUsers.get(user.id))!.shareCode).toBeNull();

    const given = await Promise.all(Array.from({ length: 6 }, () => dynamoUsers.ensureShareCode(user)));
    const code = given[0]!.shareCode!;
    expect(code).toMatch(CROCKFORD_8);
    expect(given.map((each) => each.shareCode)).toEqual(Array(6).fill(code));
    const claims = (await allItems()).filter((item) => item.entity === 'ShareCode' && item.userId === user.id);
    expect(claims).toEqual([expect.objectContaining({ pk: `SHARE#${code}` })]);

    const loggedIn = await call(login, { body: { email, password } });
    expect((loggedIn.body.userProfile as { shareCode: string }).shareCode).toBe(code);
  });

  it('are given at login to a user stored without one', async () => {
    const email = uniqueEmail('legacy-login');
    const user = { ...newUserRecord(newId(), email, await hashPassword(password), new Date()), shareCode: null };
    expect(await dynamoUsers.create(user)).toBe(true);
    const loggedIn = await call(login, { body: { email, password } });
    const code = (loggedIn.body.userProfile as { shareCode: string }).shareCode;
    expect(code).toMatch(CROCKFORD_8);
    expect((await dynamoUsers.get(user.id))!.shareCode).toBe(code);
    const checked = await call(checkAuth, { cookies: [cookieFrom(loggedIn)] });
    expect((checked.body.userProfile as { shareCode: string }).shareCode).toBe(code);
  });

  it('takes another code at signup when the one drawn is already claimed', async () => {
    const taken = (await call(signup, { body: { email: uniqueEmail('first'), password } })).body.userProfile as {
      id: string;
      shareCode: string;
    };
    const user = newUserRecord(newId(), uniqueEmail('second'), await hashPassword(password), new Date());
    user.shareCode = taken.shareCode;
    expect(await dynamoUsers.create(user)).toBe(true);
    const stored = await dynamoUsers.get(user.id);
    expect(stored!.shareCode).toMatch(CROCKFORD_8);
    expect(stored!.shareCode).not.toBe(taken.shareCode);
    expect(await claimOf(taken.shareCode)).toMatchObject({ userId: taken.id });
    expect(await claimOf(stored!.shareCode!)).toMatchObject({ userId: user.id });
  });
});
