import { randomBytes } from 'node:crypto';
import {
  GetSecretValueCommand,
  ResourceNotFoundException,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { SignJWT, decodeProtectedHeader } from 'jose';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SECRET_MAX_AGE_SECONDS, clearSecretCache, getSecret } from '../config/secrets';
import { ACCESS_TOKEN_SECONDS, KEY_REFRESH_SECONDS, signAccessToken, verifyAccessToken } from './tokens';

/**
 * Secrets Manager has no local engine: its client is mocked with the behaviour of version stages
 * (put-secret-value makes the new version AWSCURRENT and moves AWSPREVIOUS to the version it
 * replaced; a secret never replaced has no AWSPREVIOUS, and asking for it is a
 * ResourceNotFoundException). The local path reads the value the local secrets file puts in the
 * environment.
 */
const ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:portal/TokenSigningKey-AbCdEf';
process.env.TABLE_NAME ??= 'unit-tests';

interface Version {
  id: string;
  value: string;
  created: Date;
}
let versions: Version[] = [];
let fetches: { stage: string | undefined }[] = [];
let testHour = 0;
const secretsManager = mockClient(SecretsManagerClient);

function putSecretValue(value = randomBytes(48).toString('base64url')): Version {
  const version = { id: `v-${versions.length + 1}-${randomBytes(4).toString('hex')}`, value, created: new Date() };
  versions.push(version);
  return version;
}

beforeEach(() => {
  versions = [];
  fetches = [];
  secretsManager.reset();
  secretsManager.on(GetSecretValueCommand).callsFake((input: { SecretId?: string; VersionStage?: string }) => {
    expect(input.SecretId).toBe(ARN);
    fetches.push({ stage: input.VersionStage });
    const stage = input.VersionStage ?? 'AWSCURRENT';
    const version = stage === 'AWSCURRENT' ? versions.at(-1) : stage === 'AWSPREVIOUS' ? versions.at(-2) : undefined;
    if (!version) {
      throw new ResourceNotFoundException({
        message: "Secrets Manager can't find the specified secret value for staging label: AWSPREVIOUS",
        $metadata: {},
      });
    }
    return { ARN, VersionId: version.id, SecretString: version.value, CreatedDate: version.created };
  });
  delete process.env.TOKEN_SIGNING_KEY;
  process.env.TOKEN_SIGNING_KEY_ARN = ARN;
  clearSecretCache();
  // Each test an hour after the last: a container's once-per-interval refresh starts afresh.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(Date.UTC(2026, 10, 26, 0, 0, 0) + testHour++ * 3_600_000));
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(() => secretsManager.restore());

const minutes = (n: number) => vi.advanceTimersByTime(n * 60_000);
const claims = { userId: 'user-1', familyId: 'family-1' };
const kidOf = (token: string) => decodeProtectedHeader(token).kid;

describe('access tokens name the key version that signed them', () => {
  it('signs with the current version and its id as kid, and verifies it', async () => {
    const first = putSecretValue();
    const token = await signAccessToken(claims);
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'JWT', kid: first.id });
    expect(await verifyAccessToken(token)).toEqual(claims);
  });

  it('refuses a token without a kid, or with a kid of no version, even when signed with the current key', async () => {
    const current = putSecretValue();
    const key = new TextEncoder().encode(current.value);
    const unsigned = async (header: Record<string, string>) =>
      new SignJWT({ sid: 'family-1' })
        .setProtectedHeader({ alg: 'HS256', ...header })
        .setSubject('user-1')
        .setIssuer('reseller-portal')
        .setAudience('reseller-portal-api')
        .setIssuedAt()
        .setExpirationTime('15m')
        .sign(key);
    expect(await verifyAccessToken(await unsigned({}))).toBeNull();
    expect(await verifyAccessToken(await unsigned({ kid: 'v-forged' }))).toBeNull();
    expect(await verifyAccessToken(await unsigned({ kid: current.id }))).toEqual(claims);
    expect(await verifyAccessToken('not a token')).toBeNull();
  });
});

describe('replacing the signing key', () => {
  it('new tokens use the new key once the cache is older than its age; tokens of the previous key stay valid until they expire', async () => {
    const first = putSecretValue();
    const before = await signAccessToken(claims);
    minutes(1);
    const second = putSecretValue(); // put-secret-value: `first` is AWSPREVIOUS now

    // This container's cache still holds the first version: it keeps signing with it.
    expect(kidOf(await signAccessToken(claims))).toBe(first.id);
    minutes(SECRET_MAX_AGE_SECONDS / 60);
    const after = await signAccessToken(claims);
    expect(kidOf(after)).toBe(second.id);

    // Both verify: the old token with the previous version, the new one with the current.
    expect(await verifyAccessToken(before)).toEqual(claims);
    expect(await verifyAccessToken(after)).toEqual(claims);

    // The old token expires at its 15 minutes, as any token does.
    minutes(ACCESS_TOKEN_SECONDS / 60 - SECRET_MAX_AGE_SECONDS / 60);
    expect(await verifyAccessToken(before)).toBeNull();
    expect(await verifyAccessToken(after)).toEqual(claims);
  });

  it('an unknown kid makes the container fetch the versions again, at most once per refresh interval', async () => {
    putSecretValue();
    await signAccessToken(claims); // warm: the first version is cached
    const second = putSecretValue();
    const key = new TextEncoder().encode(second.value);
    const signedWithNew = await new SignJWT({ sid: 'family-1' })
      .setProtectedHeader({ alg: 'HS256', kid: second.id })
      .setSubject('user-1')
      .setIssuer('reseller-portal')
      .setAudience('reseller-portal-api')
      .setIssuedAt()
      .setExpirationTime('15m')
      .sign(key);
    fetches = [];
    // The cached current version is the first: the kid is unknown, so both stages are fetched again.
    expect(await verifyAccessToken(signedWithNew)).toEqual(claims);
    expect(fetches.map((fetch) => fetch.stage)).toContain('AWSCURRENT');
    // A kid no version has: one more refresh is not allowed within the interval.
    fetches = [];
    minutes(0.1);
    const forged = signedWithNew.replace(/^[^.]+/, (header) =>
      Buffer.from(
        JSON.stringify({ ...JSON.parse(Buffer.from(header, 'base64url').toString()), kid: 'v-unknown' }),
      ).toString('base64url'),
    );
    expect(await verifyAccessToken(forged)).toBeNull();
    expect(await verifyAccessToken(forged)).toBeNull();
    expect(fetches).toEqual([]);
    minutes(KEY_REFRESH_SECONDS / 60);
    expect(await verifyAccessToken(forged)).toBeNull();
    expect(fetches.length).toBeGreaterThan(0);
  });

  it('the previous key signs nothing new: a token it signed after the current key (and the cache age) is refused', async () => {
    const first = putSecretValue();
    minutes(1);
    putSecretValue();
    minutes(SECRET_MAX_AGE_SECONDS / 60 + 1);
    // Someone holding the replaced key makes a fresh token with it.
    const forged = await new SignJWT({ sid: 'family-1' })
      .setProtectedHeader({ alg: 'HS256', kid: first.id })
      .setSubject('user-1')
      .setIssuer('reseller-portal')
      .setAudience('reseller-portal-api')
      .setIssuedAt()
      .setExpirationTime('15m')
      .sign(new TextEncoder().encode(first.value));
    expect(await verifyAccessToken(forged)).toBeNull();
  });

  it('a second replacement retires the first key: its tokens are refused', async () => {
    putSecretValue();
    const old = await signAccessToken(claims);
    putSecretValue();
    putSecretValue();
    minutes(SECRET_MAX_AGE_SECONDS / 60 + 0.1); // past the cache's age
    expect(await verifyAccessToken(old)).toBeNull();
  });

  it('a secret never replaced has no previous version: its tokens verify, and nothing else is asked', async () => {
    putSecretValue();
    const token = await signAccessToken(claims);
    expect(await verifyAccessToken(token)).toEqual(claims);
    // Within the cache age, the current version is fetched once.
    expect(fetches.filter((fetch) => fetch.stage === 'AWSCURRENT')).toHaveLength(1);
  });

  it('caches each secret for its age, not for the container life', async () => {
    putSecretValue('first-value-of-at-least-32-characters-long');
    expect(await getSecret('tokenSigningKey')).toBe('first-value-of-at-least-32-characters-long');
    putSecretValue('second-value-of-at-least-32-characters-long');
    expect(await getSecret('tokenSigningKey')).toBe('first-value-of-at-least-32-characters-long');
    minutes(SECRET_MAX_AGE_SECONDS / 60 - 1);
    expect(await getSecret('tokenSigningKey')).toBe('first-value-of-at-least-32-characters-long');
    minutes(1.01);
    expect(await getSecret('tokenSigningKey')).toBe('second-value-of-at-least-32-characters-long');
  });
});

describe('locally, the key of the data folder secrets file', () => {
  beforeEach(() => {
    delete process.env.TOKEN_SIGNING_KEY_ARN;
  });
  afterEach(() => {
    delete process.env.TOKEN_SIGNING_KEY;
  });

  it('signs with a kid made from the key: a restart with the same file keeps tokens valid, a new key refuses them', async () => {
    process.env.TOKEN_SIGNING_KEY = randomBytes(48).toString('base64url');
    const token = await signAccessToken(claims);
    expect(kidOf(token)).toMatch(/^local-[0-9a-f]{16}$/);
    clearSecretCache(); // a restart
    expect(await verifyAccessToken(token)).toEqual(claims);
    process.env.TOKEN_SIGNING_KEY = randomBytes(48).toString('base64url'); // npm run reset: a new file
    expect(await verifyAccessToken(token)).toBeNull();
    expect(fetches).toEqual([]); // Secrets Manager is never asked
  });

  it('refuses a key shorter than 32 characters', async () => {
    process.env.TOKEN_SIGNING_KEY = 'short';
    await expect(signAccessToken(claims)).rejects.toThrow('TOKEN_SIGNING_KEY must be at least 32 characters');
  });
});
