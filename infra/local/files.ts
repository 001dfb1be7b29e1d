import { chmodSync, lstatSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The local portal's files belong to whoever runs it: every folder it makes is 0700 and every
 * file it writes 0600, and a folder made before (by an older version, or with a looser umask) is
 * put right on start.
 */

/** Makes `dir` (and missing parents) with mode 0700, and sets 0700 on it when it already exists. */
export function secureDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/** Every folder under `dir` (itself included) 0700, every file 0600; symbolic links are left alone. */
export function secureTree(dir: string): void {
  secureDir(dir);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) secureTree(path);
    else if (lstatSync(path).isFile()) chmodSync(path, 0o600);
  }
}

/** Writes a file readable by its owner only (0600, also when it existed with another mode). */
export function writePrivateFile(file: string, content: string | Uint8Array): void {
  writeFileSync(file, content, { mode: 0o600 });
  chmodSync(file, 0o600);
}

/**
 * Runs `start` with the process umask at 077, so that files a child process (the Java of
 * DynamoDB Local) creates are its owner's only; the umask is restored at once.
 */
export function withPrivateUmask<T>(start: () => T): T {
  const previous = process.umask(0o077);
  try {
    return start();
  } finally {
    process.umask(previous);
  }
}

/**
 * Sets the process umask to 077 until the returned function is called. Where the umask cannot be
 * changed (a worker thread), nothing changes: the folders' 0700 still keep others out.
 */
export function privateUmask(): () => void {
  try {
    const previous = process.umask(0o077);
    return () => void process.umask(previous);
  } catch {
    return () => undefined;
  }
}
