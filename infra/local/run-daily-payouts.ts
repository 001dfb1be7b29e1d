import { join } from 'node:path';
import { configureEnvironment, root } from './start';
import { runningPortal } from './portal-marker';

/**
 * `npm run payouts:run`: runs the daily payouts now against the running portal (its table and its
 * Stripe emulator), as its 00:00 UTC timer does: today's batch, so a second run the same day
 * continues it and pays no one twice.
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
  configureEnvironment({ dataDir, dynamoEndpoint: portal.dynamoEndpoint, stripeApiUrl: portal.stripeEmulator });
  // The members' "your payout is on its way" links to the running portal.
  if (portal.url) process.env.SITE_URL = portal.url;
  const { handler } = await import('../../functions/src/handlers/scheduled/daily-payouts');
  const result = await handler();
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
