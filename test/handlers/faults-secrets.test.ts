import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { keys } from '../../shared/src/db/table';
import { ensureAccount } from '../../infra/local/accounts';
import { sdk } from '../../infra/local/stripe/testing';
import { SETTINGS_UNAVAILABLE } from '../../functions/src/config/secrets';
import { handler as createPayoutAccount } from '../../functions/src/handlers/create-payout-account';
import { handler as getPaymentConfig } from '../../functions/src/handlers/get-payment-config';
import { handler as signup } from '../../functions/src/handlers/signup';
import { allItems, auth, call, cookieFrom, payoutAccountForm, uniqueEmail, type CallResult } from './helpers';

/**
 * Secrets Manager cannot be reached at cold start. In AWS the functions get each secret by the
 * ARN in `<NAME>_ARN`; here the direct values are taken away and the ARNs set, and the Secrets
 * Manager client is mocked (there is no local engine for it): a test makes the first fetch of a
 * secret fail as the SDK fails after its own retries; the next ones answer the value.
 */
const secrets = {
  TOKEN_SIGNING_KEY: process.env.TOKEN_SIGNING_KEY!,
  STRIPE_PUBLISHABLE_KEY: process.env.STRIPE_PUBLISHABLE_KEY!,
  STRIPE_SECRET_KEY: process.env.STRIPE_SECRET_KEY!,
};
const arnOf = (name: string) => `arn:aws:secretsmanager:us-east-1:123456789012:secret:portal/${name}-AbCdEf`;
for (const name of Object.keys(secrets)) {
  delete process.env[name];
  process.env[`${name}_ARN`] = arnOf(name);
}

const unreachable = () =>
  Object.assign(new Error('connect ETIMEDOUT 10.0.0.12:443'), {
    name: 'TimeoutError',
    code: 'ETIMEDOUT',
    $metadata: { attempts: 3 },
  });
const secretsManager = mockClient(SecretsManagerClient);
/** Secrets whose next fetch fails; how often each was fetched. */
const failNext = new Set<string>();
const fetches = new Map<string, number>();
secretsManager.on(GetSecretValueCommand).callsFake((input: { SecretId?: string }) => {
  const name = Object.keys(secrets).find((key) => arnOf(key) === input.SecretId);
  if (!name) throw new Error(`No such secret: ${input.SecretId}`);
  fetches.set(name, (fetches.get(name) ?? 0) + 1);
  if (failNext.delete(name)) throw unreachable();
  return { SecretString: secrets[name as keyof typeof secrets] };
});
afterAll(() => secretsManager.restore());
const fetchesOf = (name: string) => fetches.get(name) ?? 0;

function expectUnavailable(result: CallResult) {
  expect(result.status).toBe(503);
  expect(result.body).toEqual({ message: SETTINGS_UNAVAILABLE });
  expect(result.headers['retry-after']).toBe('5');
  // Nothing of what went wrong inside: no network detail, no ARN.
  expect(JSON.stringify(result.body)).not.toMatch(/ETIMEDOUT|10\.0\.0\.12|arn:|secretsmanager/i);
}

describe('Secrets Manager unreachable at cold start', () => {
  it('getPaymentConfig answers 503 with Retry-After, and the next call recovers (the failure is not cached)', async () => {
    failNext.add('STRIPE_PUBLISHABLE_KEY');
    expectUnavailable(await call(getPaymentConfig, { body: {} }));
    expect(fetchesOf('STRIPE_PUBLISHABLE_KEY')).toBe(1);

    const next = await call(getPaymentConfig, { body: {} });
    expect(next.status).toBe(200);
    expect(next.body.publishableKey).toBe(secrets.STRIPE_PUBLISHABLE_KEY);
    expect(fetchesOf('STRIPE_PUBLISHABLE_KEY')).toBe(2);
    // The value, once had, is kept (for SECRET_MAX_AGE_SECONDS, config/secrets.ts).
    await call(getPaymentConfig, { body: {} });
    expect(fetchesOf('STRIPE_PUBLISHABLE_KEY')).toBe(2);
  });

  it('signup answers 503 and stores no account; the next sign-up with the same address works', async () => {
    const email = uniqueEmail('secrets-signup');
    const password = 'a long enough password';
    failNext.add('TOKEN_SIGNING_KEY');
    expectUnavailable(await call(signup, { body: { email, password } }));
    const accountOf = async () =>
      (await allItems()).filter(
        (item) =>
          (item.entity === 'User' && item.email === email) ||
          (item.entity === 'UserEmail' && item.pk === keys.email(email).pk),
      );
    expect(await accountOf()).toEqual([]);

    const next = await call(signup, { body: { email, password } });
    expect(next.status).toBe(200);
    expect(await accountOf()).toHaveLength(2);
  });

  it('login answers 503 and keeps no session; the next login signs in, and its token works', async () => {
    // A new container: the key signup loaded above is not in this one.
    vi.resetModules();
    const { handler: login } = await import('../../functions/src/handlers/login');
    const { handler: checkAuth } = await import('../../functions/src/handlers/check-auth');
    const email = uniqueEmail('secrets');
    const password = 'a long enough password';
    await ensureAccount(email, password, false);
    const before = await allItems();

    failNext.add('TOKEN_SIGNING_KEY');
    expectUnavailable(await call(login, { body: { email, password } }));
    // No session (or anything else) was stored for a login that answered no token.
    const sessionsOf = (items: Record<string, unknown>[]) =>
      items.filter((item) => /^Session/.test(String(item.entity)));
    expect(sessionsOf(await allItems())).toEqual(sessionsOf(before));

    const next = await call(login, { body: { email, password } });
    expect(next.status).toBe(200);
    expect(failNext.has('TOKEN_SIGNING_KEY')).toBe(false);
    // The session it stored is whole: its refresh cookie gets a new access token.
    const checked = await call(checkAuth, { body: {}, cookies: [cookieFrom(next)] });
    expect(checked.status).toBe(200);
  });

  it('createPayoutAccount answers 503 and creates no account anywhere; the retry creates one', async () => {
    const joined = await call(signup, {
      body: { email: uniqueEmail('secrets-payout'), password: 'long enough password' },
    });
    expect(joined.status).toBe(200);
    const token = String(joined.body.access_token);
    const userId = (joined.body.userProfile as { id: string }).id;
    const stripe = sdk(Number(new URL(inject('stripeApiUrl')).port), secrets.STRIPE_SECRET_KEY);
    const accountsOf = async () =>
      (await stripe.accounts.list({ limit: 100 })).data.filter((account) => account.metadata?.userId === userId);
    const stored = async () => (await allItems()).find((item) => item.entity === 'User' && item.id === userId)!;

    failNext.add('STRIPE_SECRET_KEY');
    expectUnavailable(await call(createPayoutAccount, { body: payoutAccountForm, headers: auth(token) }));
    expect(await accountsOf()).toEqual([]);
    expect(await stored()).toMatchObject({ isAccountCreated: 0 });
    expect((await stored()).stripeID ?? null).toBeNull();

    const next = await call(createPayoutAccount, { body: payoutAccountForm, headers: auth(token) });
    expect(next.status).toBe(200);
    expect(await accountsOf()).toHaveLength(1);
    expect(await stored()).toMatchObject({ isAccountCreated: 1, stripeID: (await accountsOf())[0]!.id });
  });
});
