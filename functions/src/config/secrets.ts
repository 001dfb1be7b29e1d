import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { unavailable } from '../errors';
import { loadLogger } from './logger';
import { secretEnv, type SecretName } from './secret-names';

/**
 * A secret's value comes from the environment variable named in `secretEnv` when it is set
 * (local runtime, tests), otherwise from Secrets Manager by the ARN in `<NAME>_ARN` (AWS).
 * Values are fetched once per container; a failed fetch is not kept, so the next call tries again.
 * When Secrets Manager cannot be reached (after the SDK's own retries), the call answers 503 with
 * Retry-After and the detail goes to the log: nothing was done, and trying again is all it takes.
 */
const cache = new Map<SecretName, Promise<string>>();
let client: SecretsManagerClient | undefined;

export function getSecret(name: SecretName): Promise<string> {
  let value = cache.get(name);
  if (!value) {
    value = load(name);
    cache.set(name, value);
    value.catch(() => cache.delete(name));
  }
  return value;
}

async function load(name: SecretName): Promise<string> {
  const variable = secretEnv[name];
  const direct = process.env[variable];
  if (direct) return direct;
  const arn = process.env[`${variable}_ARN`];
  if (!arn) throw new Error(`Environment is incomplete: set ${variable} or ${variable}_ARN`);
  client ??= new SecretsManagerClient({});
  let result;
  try {
    result = await client.send(new GetSecretValueCommand({ SecretId: arn }));
  } catch (error) {
    (await loadLogger()).error('Secrets Manager did not give a secret', { error, secret: `${variable}_ARN` });
    throw unavailable(SETTINGS_UNAVAILABLE);
  }
  if (!result.SecretString) throw new Error(`Secret ${variable}_ARN has no string value`);
  return result.SecretString;
}

export const SETTINGS_UNAVAILABLE =
  'The service could not load its settings just now, so nothing was done. Try again in a few seconds.';
