import { join } from 'node:path';
import type { DailyPayoutsResult } from '../../functions/src/handlers/scheduled/daily-payouts';
import { scheduledEvent } from './daily-payouts';
import { invokeEvent } from './invoker';
import { runningPortal } from './portal-marker';
import { portalFunctions } from './script-functions';
import { importHandler, onlyWith, root } from './start';

/**
 * `npm run payouts:run`: runs the daily payouts now against the running portal (its table and its
 * Stripe emulator), as its schedule does: the template's scheduled function with its environment,
 * its role (IAM enforced), memory and timeout (stopped at it, with Lambda's line), its REPORT line printed. Today's batch, so
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
  // The scheduled function as npm start runs it: its environment and its role (script-functions.ts).
  const functions = await portalFunctions(dataDir, portal, (fn) =>
    fn.triggers.some((trigger) => trigger.kind === 'schedule'),
  );
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
