import { describe, expect, it } from 'vitest';
import { dynamoUsers } from '../../functions/src/adapters/dynamo-users';
import { handler as login } from '../../functions/src/handlers/login';
import { handler as signup } from '../../functions/src/handlers/signup';
import { ensureAccount } from '../../infra/local/accounts';
import { call, uniqueEmail, uniqueIp } from './helpers';

/** What `npm run create-admin` and the seed do, through the same repository the handlers use. */
describe('create-admin', () => {
  it('creates an administrator who can log in and is told so by login', async () => {
    const email = uniqueEmail('new-admin');
    expect(await ensureAccount(email, 'admin password 123', true)).toBe('created');
    const result = await call(login, { body: { email, password: 'admin password 123' }, sourceIp: uniqueIp() });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ isAdmin: true, userProfile: { isAdmin: true } });
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
  });

  it('refuses an unknown e-mail without a password, and a malformed e-mail', async () => {
    await expect(ensureAccount(uniqueEmail('nopw'), undefined, true)).rejects.toThrow(/give a password/);
    await expect(ensureAccount('not-an-email', 'admin password 123', true)).rejects.toThrow(/valid email/);
  });
});
