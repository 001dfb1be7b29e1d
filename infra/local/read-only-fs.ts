import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { processWide } from './process-wide';

/**
 * Lambda's file system is read-only outside /tmp (issue 36): a function that writes anywhere else
 * fails with EROFS in AWS. Locally every handler runs in the portal's process, so the guard is in
 * the process's `fs`: while a function's invocation runs (an AsyncLocalStorage, as its environment,
 * function-env.ts), every call that writes, creates, removes or changes a file (sync, callback and
 * promise forms, `open` with a writing flag, `createWriteStream`) checks its path and throws (or
 * rejects, or calls back with) EROFS outside /tmp, the OS temporary folder and the folders the
 * local stand-ins write for the function (the mail outbox standing in for SES). Outside an
 * invocation nothing changes. ESM imports of `node:fs` see the guarded functions too
 * (`syncBuiltinESMExports`), and so do the deployed bundles (`require('fs')`). Decision 0351.
 */
interface Guard {
  writable: readonly string[];
}
const guard = processWide('readOnlyFs.guard', () => new AsyncLocalStorage<Guard>());

/** The folders a function may write in Lambda: /tmp (and the OS temporary folder, /tmp on Linux). */
export const LAMBDA_WRITABLE = [...new Set(['/tmp', tmpdir()])];

/** Runs `run` (and what it starts) with the file system read-only outside `writable`. */
export function withReadOnlyFileSystem<T>(writable: readonly string[], run: () => T): T {
  return guard.run({ writable: writable.map((dir) => resolve(dir)) }, run);
}

const isUnder = (path: string, dir: string): boolean => path === dir || path.startsWith(dir + sep);

/** The project's folder: the functions' code, read-only as Lambda's /var/task is. */
const CODE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

function pathOf(target: unknown): string | undefined {
  if (typeof target === 'string') return resolve(target);
  if (target instanceof URL) return resolve(fileURLToPath(target));
  if (Buffer.isBuffer(target)) return resolve(target.toString());
  // A file descriptor: it was opened through the guarded `open`.
  return undefined;
}

/** The EROFS error Lambda's runtime raises, or undefined when the path may be written. */
function refusal(syscall: string, target: unknown): NodeJS.ErrnoException | undefined {
  const active = guard.getStore();
  if (!active) return undefined;
  const path = pathOf(target);
  if (path === undefined) return undefined;
  // The code (Lambda's /var/task) stays read-only even where it sits under /tmp (a clone in a
  // temporary folder, as CI makes): only a writable folder inside it (the mail outbox) opens it.
  const inCode = isUnder(path, CODE_ROOT);
  if (active.writable.some((dir) => isUnder(path, dir) && (!inCode || isUnder(dir, CODE_ROOT)))) return undefined;
  return Object.assign(new Error(`EROFS: read-only file system, ${syscall} '${path}'`), {
    code: 'EROFS',
    errno: -30,
    syscall,
    path,
  });
}

/** Whether `open`'s flags write: 'w', 'a', '+' or numeric write/create/append/truncate bits. */
function writes(flags: unknown): boolean {
  if (flags === undefined || flags === null) return false;
  if (typeof flags === 'number') {
    const { O_WRONLY, O_RDWR, O_CREAT, O_APPEND, O_TRUNC } = fs.constants;
    return (flags & (O_WRONLY | O_RDWR | O_CREAT | O_APPEND | O_TRUNC)) !== 0;
  }
  return /[wa+]/.test(String(flags));
}

/** Which arguments of each call are paths written to. */
const WRITERS: Record<string, number[]> = {
  writeFile: [0],
  appendFile: [0],
  mkdir: [0],
  mkdtemp: [0],
  rm: [0],
  rmdir: [0],
  unlink: [0],
  rename: [0, 1],
  copyFile: [1],
  cp: [1],
  symlink: [1],
  link: [1],
  truncate: [0],
  chmod: [0],
  chown: [0],
  lchown: [0],
  utimes: [0],
  lutimes: [0],
};

const installation = processWide('readOnlyFs.installed', () => ({ installed: false }));

/** Puts the guard into `fs`, `fs.promises` and their ESM exports, once per process. */
export function installReadOnlyFileSystem(): void {
  if (installation.installed) return;
  installation.installed = true;
  type AnyFunction = (...args: unknown[]) => unknown;
  const table = fs as unknown as Record<string, AnyFunction>;
  const promises = fs.promises as unknown as Record<string, AnyFunction>;
  const check = (name: string, args: unknown[]): NodeJS.ErrnoException | undefined => {
    if (name === 'open' || name === 'openSync') {
      return writes(args[1]) ? refusal('open', args[0]) : undefined;
    }
    if (name === 'createWriteStream') return refusal('open', args[0]);
    const base = name.replace(/Sync$/, '');
    for (const index of WRITERS[base] ?? []) {
      const error = refusal(base, args[index]);
      if (error) return error;
    }
    return undefined;
  };
  for (const name of [...Object.keys(WRITERS), 'open']) {
    const callback = table[name];
    if (typeof callback === 'function') {
      table[name] = Object.assign(
        function guarded(this: unknown, ...args: unknown[]) {
          const error = check(name, args);
          if (!error) return callback.apply(this, args);
          const done = args.findLast((arg) => typeof arg === 'function') as AnyFunction | undefined;
          if (!done) throw error;
          process.nextTick(() => done(error));
          return undefined;
        },
        { __promisify__: (callback as { __promisify__?: unknown }).__promisify__ },
      );
    }
    const sync = table[`${name}Sync`];
    if (typeof sync === 'function') {
      table[`${name}Sync`] = function guarded(this: unknown, ...args: unknown[]) {
        const error = check(`${name}Sync`, args);
        if (error) throw error;
        return sync.apply(this, args);
      };
    }
    const promised = promises[name];
    if (typeof promised === 'function') {
      promises[name] = function guarded(this: unknown, ...args: unknown[]) {
        const error = check(name, args);
        return error ? Promise.reject(error) : promised.apply(this, args);
      };
    }
  }
  const createWriteStream = table.createWriteStream!;
  table.createWriteStream = function guarded(this: unknown, ...args: unknown[]) {
    const error = check('createWriteStream', args);
    if (error) throw error;
    return createWriteStream.apply(this, args);
  };
  syncBuiltinESMExports();
}
