import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writePrivateFile } from './files';

/**
 * `<dataDir>/portal.json`: what a running `npm start` tells the scripts that work against it
 * (`npm run create-admin`, `payouts:run`, `reconcile`): its process and where its engines listen.
 */
export interface PortalMarker {
  pid: number;
  dynamoEndpoint: string;
  stripeEmulator: string;
  /** The portal's own address, for the links in mails. */
  url: string;
}

const markerPath = (dataDir: string) => join(dataDir, 'portal.json');

/** Written once the portal is up, readable by its owner only. */
export function writePortalMarker(dataDir: string, marker: PortalMarker): void {
  writePrivateFile(markerPath(dataDir), JSON.stringify(marker));
}

/** The marker of the portal running on this data folder; undefined when none is (no file, or its process is gone). */
export function runningPortal(dataDir: string): PortalMarker | undefined {
  const path = markerPath(dataDir);
  if (!existsSync(path)) return undefined;
  const found = JSON.parse(readFileSync(path, 'utf8')) as PortalMarker;
  try {
    process.kill(found.pid, 0);
    return found;
  } catch {
    return undefined;
  }
}
