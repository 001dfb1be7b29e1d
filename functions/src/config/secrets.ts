import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { secretEnv, type SecretName } from './secret-names';

/**
 * A secret's value comes from the environment variable named in `secretEnv` when it is set
 * (local runtime, tests), otherwise from Secrets Manager by the ARN in `<NAME>_ARN` (AWS).
 * Values are fetched once per container.
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
  const result = await client.send(new GetSecretValueCommand({ SecretId: arn }));
  if (!result.SecretString) throw new Error(`Secret ${variable}_ARN has no string value`);
  return result.SecretString;
}
