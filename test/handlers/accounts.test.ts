import { describe, expect, it } from 'vitest';
import { dynamoUsers } from '../../functions/src/adapters/auth/dynamo-users';
import { handler as login } from '../../functions/src/handlers/login';
import { handler as signup } from '../../functions/src/handlers/signup';
import { ensureAccount } from '../../infra/local/accounts';
import { allItems, call, uniqueEmail, uniqueIp } from './helpers';

/** The user items and e-mail claim items stored for an address. */
async function accountItems(email: string) {
  const items = await allItems();
  return {
    users: items.filter((item) => item.entity === 'User' && item.email === email),
    claims: items.filter((item) => item.entity === 'UserEmail' && item.pk === `EMAIL#${email}`),
  };
}

/** What `npm run create-admin` and the seed do, through the same repository the handlers use. */
describe('create-admin', () => {
  it('creates an administrator who can log in and is told so by login', async () => {
    const email = uniqueEmail('new-admin');
    expect(await ensureAccount(email, 'admin password 123', true)).toBe('created');
    const result = await call(login, { body: { email, password: 'admin password 123' }, sourceIp: uniqueIp() });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ isAdmin: true, userProfile: { isAdmin: true, isEmailVerified: true } });
  });

  it('promotes an existing member without touching the password', async () => {
    const email = uniqueEmail('promote');
    await call(signup, { body: { email, password: 'member password 1' } });
    expect(await ensureAccount(email.toUpperCase(), undefined, true)).toBe('present');
    expect((await dynamoUsers.findByEmail(email))?.isAdmin).toBe(true);
    const result = await call(login, { body: { email, password: 'member password 1' }, sourceIp: uniqueIp() });
    expect(result.body.isAdmin).toBe(true);
  });

  it('is idempotent: running it twice leaves one account', async () => {
    const email = uniqueEmail('twice');
    expect(await ensureAccount(email, 'admin password 123', true)).toBe('created');
    expect(await ensureAccount(email, 'another password 1', true)).toBe('present');
    const result = await call(login, { body: { email, password: 'admin password 123' }, sourceIp: uniqueIp() });
    expect(result.status).toBe(200);
    const { users, claims } = await accountItems(email);
    expect(users).toHaveLength(1);
    expect(claims).toEqual([expect.objectContaining({ userId: users[0]!.id })]);
  });

  it('run twice at the same moment, still leaves one user and one e-mail claim', async () => {
    const email = uniqueEmail('race');
    const outcomes = await Promise.all([
      ensureAccount(email, 'admin password 123', true),
      ensureAccount(email, 'admin password 456', true),
    ]);
    expect(outcomes.sort()).toEqual(['created', 'present']);
    const { users, claims } = await accountItems(email);
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({ isAdmin: true });
    expect(claims).toEqual([expect.objectContaining({ userId: users[0]!.id })]);
  });

  it('refuses an unknown e-mail without a password, and a malformed e-mail', async () => {
    await expect(ensureAccount(uniqueEmail('nopw'), undefined, true)).rejects.toThrow(/give a password/);
    await expect(ensureAccount('not-an-email', 'admin password 123', true)).rejects.toThrow(/valid e-mail address/);
  });
});
