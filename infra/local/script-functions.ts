import { join } from 'node:path';
import { localAws } from './dynamo';
import { installFunctionEnvironments } from './function-env';
import { assemblyFromTemplates } from './iam/assembly';
import { enforceIam } from './iam/enforce';
import type { PortalMarker } from './portal-marker';
import { installReadOnlyFileSystem } from './read-only-fs';
import { localSecrets, portalContexts, runtimeFunctions, templateCacheDir, type RuntimeFunction } from './start';
import { synthesizeTemplates, type TemplateFunction } from './template';

/**
 * The scripts that run a function's code against the running portal outside its server
 * (`npm run payouts:run`, `npm run reconcile`): the template's functions as `npm start` runs them,
 * from the same synth (the data folder's cached template), each with its own environment, its file
 * system read-only outside /tmp and its AWS calls held to its synthesized role (infra/local/iam).
 * Run the function's code through invoker.ts `invokeEvent`, which puts it in its function's scope.
 * `only` picks the functions the script runs (the others' queues, say, need not exist here).
 */
export async function portalFunctions(
  dataDir: string,
  portal: PortalMarker,
  only: (fn: TemplateFunction) => boolean,
): Promise<RuntimeFunction[]> {
  process.umask(0o077);
  installFunctionEnvironments();
  installReadOnlyFileSystem();
  const { templates } = await synthesizeTemplates({ cacheDir: templateCacheDir(dataDir), contexts: portalContexts() });
  enforceIam(assemblyFromTemplates(templates));
  return runtimeFunctions(templates, {
    secrets: localSecrets(dataDir),
    ownStripeKey: false,
    only,
    // Links in mails point at the running portal.
    siteUrl: portal.url ?? 'http://localhost:3000',
    standIns: {
      region: localAws.region,
      credentials: localAws.credentials,
      dynamoEndpoint: portal.dynamoEndpoint,
      stripeApiUrl: portal.stripeEmulator,
      mailOutboxDir: join(dataDir, 'outbox'),
      logLevel: process.env.POWERTOOLS_LOG_LEVEL ?? 'WARN',
    },
  });
}

/** The template's function `name`, or an error naming it. */
export function functionNamed(functions: readonly RuntimeFunction[], name: string): RuntimeFunction {
  const fn = functions.find((candidate) => candidate.name === name);
  if (!fn) throw new Error(`The synthesized template has no function ${name} (functions/src/routes.ts)`);
  return fn;
}
