import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * One portal per data folder. Two `npm start`s on the same .local/ would run two DynamoDB Local
 * engines on one database file, two S3 servers on one folder and two Stripe ledgers on one file,
 * each overwriting the other's writes. The folder's `portal.lock` holds the running portal's
 * process id: made with an exclusive create, so of two starts at once only one gets it; a lock
 * whose process is gone (the portal was killed) is taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  const file = join(dataDir, 'portal.lock');
  const unlock = takeLock(file);
  if (unlock) return unlock;
  const holder = readHolder(file);
  if (holder !== null && isRunning(holder)) {
    throw new Error(
      `Another portal is running with this data folder (${dataDir}, process ${holder}). Stop it with Ctrl-C first, or start this one with its own folder. If no portal is running, delete ${file}.`,
    );
  }
  throw new Error(`Could not take the data folder's lock (${file}); another start may be under way. Try again.`);
}

/**
 * Takes the lock `file` for this process (its id written in it, made with an exclusive create),
 * taking over one whose process is gone; undefined while a running process holds it. Returns
 * what releases it.
 */
export function takeLock(file: string): (() => void) | undefined {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    let fd: number;
    try {
      fd = openSync(file, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readHolder(file);
      if (holder !== null && isRunning(holder)) return undefined;
      // Its process is gone: the lock is stale (or half-written by a start that is just making it,
      // which the next attempt's exclusive create settles).
      removeQuietly(file);
      continue;
    }
    try {
      writeSync(fd, String(process.pid));
    } finally {
      closeSync(fd);
    }
    return () => {
      if (readHolder(file) === process.pid) removeQuietly(file);
    };
  }
  return undefined;
}

function readHolder(file: string): number | null {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Whether a process with this id exists (one of another user's counts too: EPERM). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
