import { createHash } from 'node:crypto';
import { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';
import type { SecretsGetOptions } from '@aws-lambda-powertools/parameters/secrets/types';
import { GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import { unavailable } from '../errors';
import { localAwsCheck } from './local-aws-check';
import { loadLogger } from './logger';
import { secretEnv, type SecretName } from './secret-names';

/**
 * A secret's value comes from the environment variable named in `secretEnv` when it is set
 * (local runtime, tests), otherwise from Secrets Manager by the ARN in `<NAME>_ARN` (AWS).
 *
 * Values from Secrets Manager are cached for SECRET_MAX_AGE_SECONDS (Powertools Parameters), not
 * for a container's life: a value put with `put-secret-value` reaches every container, warm or
 * new, within that time. A failed fetch is not kept, so the next call tries again. When Secrets
 * Manager cannot be reached (after the SDK's own retries), the call answers 503 with Retry-After
 * and the detail goes to the log: nothing was done, and trying again is all it takes.
 */
export const SECRET_MAX_AGE_SECONDS = 5 * 60;

/** The two versions a function reads: the one in use, and the one it replaced (rotation). */
export type SecretStage = 'AWSCURRENT' | 'AWSPREVIOUS';

export interface SecretVersion {
  value: string;
  /**
   * Secrets Manager's version id; for a value from the environment (locally), `local-` and the
   * start of the value's SHA-256, so that a replaced local value is a new version too.
   */
  versionId: string;
  /** When this version was created (ms since the epoch), when Secrets Manager says. */
  createdAt?: number;
}

/**
 * Secrets Manager through Powertools' cache, one cache entry per secret and stage. Powertools
 * keys its cache by name only (not by the SDK options), so the stage travels in the name:
 * `AWSPREVIOUS <arn>`. The cached value is the version as JSON, `null` when the stage holds no
 * version (a secret never replaced has no AWSPREVIOUS).
 */
class VersionedSecretsProvider extends SecretsProvider {
  protected override async _get(name: string, _options?: SecretsGetOptions): Promise<string> {
    const [stage, secretId] = name.split(' ') as [SecretStage, string];
    try {
      const result = await this.client.send(new GetSecretValueCommand({ SecretId: secretId, VersionStage: stage }));
      if (result.SecretString === undefined) throw new Error('the secret has no string value');
      const version: SecretVersion = {
        value: result.SecretString,
        versionId: result.VersionId ?? localVersionId(result.SecretString),
        ...(result.CreatedDate ? { createdAt: result.CreatedDate.getTime() } : {}),
      };
      return JSON.stringify(version);
    } catch (error) {
      if (stage === 'AWSPREVIOUS' && (error as { name?: string }).name === 'ResourceNotFoundException') return 'null';
      throw error;
    }
  }
}

let provider: VersionedSecretsProvider | undefined;
const inFlight = new Map<string, Promise<string | undefined>>();

const localVersionId = (value: string): string =>
  `local-${createHash('sha256').update(value).digest('hex').slice(0, 16)}`;

/** The value in use (AWSCURRENT). */
export async function getSecret(name: SecretName): Promise<string> {
  return (await getSecretVersion(name, 'AWSCURRENT')).value;
}

/**
 * A version of a secret: AWSCURRENT always (or an error), AWSPREVIOUS when there is one. From the
 * environment there is only the current value (set another one and restart to replace it).
 * `refresh` skips the cache (a token signed with a version this container has not seen yet).
 */
export async function getSecretVersion(
  name: SecretName,
  stage: 'AWSCURRENT',
  options?: { refresh?: boolean },
): Promise<SecretVersion>;
export async function getSecretVersion(
  name: SecretName,
  stage: SecretStage,
  options?: { refresh?: boolean },
): Promise<SecretVersion | undefined>;
export async function getSecretVersion(
  name: SecretName,
  stage: SecretStage,
  options: { refresh?: boolean } = {},
): Promise<SecretVersion | undefined> {
  const variable = secretEnv[name];
  const direct = process.env[variable];
  if (direct) {
    // Locally, as Secrets Manager would: the function's role must allow reading this secret (a
    // denial is answered as one in AWS is, below).
    await localAwsCheck('SecretsManagerClient', 'GetSecretValueCommand', { SecretName: name }).catch(
      async (error: unknown) => {
        throw await settingsUnavailable(error, variable, stage);
      },
    );
    return stage === 'AWSCURRENT' ? { value: direct, versionId: localVersionId(direct) } : undefined;
  }
  const arn = process.env[`${variable}_ARN`];
  if (!arn) throw new Error(`Environment is incomplete: set ${variable} or ${variable}_ARN`);
  provider ??= new VersionedSecretsProvider();
  const key = `${stage} ${arn}`;
  const refresh = options.refresh ?? false;
  let cached: string | undefined;
  try {
    // Concurrent calls of a cold container share one fetch (Powertools fetches per call).
    const flight = `${key} ${refresh}`;
    let fetching = inFlight.get(flight);
    if (!fetching) {
      const started = provider.get(key, { maxAge: SECRET_MAX_AGE_SECONDS, forceFetch: refresh }) as Promise<
        string | undefined
      >;
      fetching = started.finally(() => inFlight.delete(flight));
      inFlight.set(flight, fetching);
    }
    cached = await fetching;
  } catch (error) {
    throw await settingsUnavailable(error, variable, stage);
  }
  const version = cached === undefined ? null : (JSON.parse(cached) as SecretVersion | null);
  if (!version && stage === 'AWSCURRENT') throw new Error(`Secret ${variable}_ARN has no current version`);
  return version ?? undefined;
}

/** Forgets every cached version (tests: a fresh container). */
export function clearSecretCache(): void {
  provider?.clearCache();
}

export const SETTINGS_UNAVAILABLE =
  'The service could not load its settings just now, so nothing was done. Try again in a few seconds.';

/** Secrets Manager's failure (unreachable, or the role may not read the secret): logged, and the 503 in words. */
async function settingsUnavailable(error: unknown, variable: string, stage: SecretStage) {
  (await loadLogger()).error('Secrets Manager did not give a secret', { error, secret: `${variable}_ARN`, stage });
  return unavailable(SETTINGS_UNAVAILABLE);
}
