import { join } from 'node:path';
import type { DailyPayoutsResult } from '../../functions/src/handlers/scheduled/daily-payouts';
import { scheduledEvent } from './daily-payouts';
import { localAws } from './dynamo';
import { installFunctionEnvironments } from './function-env';
import { invokeEvent } from './invoker';
import { installReadOnlyFileSystem } from './read-only-fs';
import { runningPortal } from './portal-marker';
import {
  importHandler,
  localSecrets,
  onlyWith,
  portalContexts,
  root,
  runtimeFunctions,
  templateCacheDir,
} from './start';
import { synthesizeTemplates } from './template';

/**
 * `npm run payouts:run`: runs the daily payouts now against the running portal (its table and its
 * Stripe emulator), as its schedule does: the template's scheduled function with its environment,
 * memory and timeout (stopped at it, with Lambda's line), its REPORT line printed. Today's batch, so
 * a second run the same day continues it and pays no one twice.
 */
async function main(): Promise<void> {
  const dataDir = join(root, '.local');
  const portal = runningPortal(dataDir);
  if (!portal) {
    throw new Error(
      'The portal is not running: start it with npm start (the payouts need its Stripe emulator), then run this again.',
    );
  }
  process.umask(0o077);
  installFunctionEnvironments();
  installReadOnlyFileSystem();
  const { templates } = await synthesizeTemplates({ cacheDir: templateCacheDir(dataDir), contexts: portalContexts() });
  const functions = runtimeFunctions(templates, {
    secrets: localSecrets(dataDir),
    ownStripeKey: false,
    // The members' "your payout is on its way" links to the running portal.
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
  const { fn, trigger } = onlyWith(functions, 'schedule');
  const handler = await importHandler<() => Promise<DailyPayoutsResult>>(fn.module);
  const result = await invokeEvent(fn, handler, scheduledEvent(trigger.ruleLogicalId), (line) => console.log(line));
  console.log(`Daily payouts ${result.batchId}: ${result.summary}`);
  console.log(
    `  paid: ${result.paid}, settled against debts: ${result.settled}, below the minimum: ${result.belowMinimum}`,
  );
  for (const problem of result.attention) console.log(`  ${problem.memberEmail}: ${problem.message}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
