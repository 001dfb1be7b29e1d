import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startPortal } from '../../infra/local/start';

/**
 * Starts the whole portal once for the browser tests: both apps built, DynamoDB Local, the API
 * and the two seeded accounts, on a random free port with its data in a fresh temporary folder.
 */

export interface Account {
  email: string;
  password: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    portalUrl: string;
    accounts: { admin: Account; member: Account };
    /** The portal's data folder: mail is in its outbox/ (one JSON file per message). */
    portalDataDir: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-e2e-'));
  // No hold on commissions here (0 is a valid setting): the browser walks send and pay what they
  // sold at once; the hold itself is held by the handler tests (ledger, commissions-read).
  process.env.COMMISSION_HOLD_DAYS ??= '0';
  const portal = await startPortal({ port: 0, dataDir, quiet: true });
  project.provide('portalUrl', portal.url);
  project.provide('accounts', portal.accounts);
  project.provide('portalDataDir', dataDir);
  return async () => {
    await portal.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
