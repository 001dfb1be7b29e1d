import { vi } from 'vitest';

/**
 * What makes a test file start as in a process of its own, in a project whose files share a worker
 * (`isolate: false` in vitest.config.ts: the packages a file imports stay loaded, which is where
 * most of a file's start went). Run first by the project's setup file, before the test file is
 * imported: our own modules are imported afresh (module state such as the parsed environment is
 * the file's own; the packages, loaded by Node, are shared), the environment variables are the
 * worker's first ones, and no stubbed global or fake timer is left from the file before.
 */
export function freshFile(): void {
  vi.resetModules();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  const shared = globalThis as { __portalEnvAtStart?: Record<string, string | undefined> };
  shared.__portalEnvAtStart ??= { ...process.env };
  const atStart = shared.__portalEnvAtStart;
  for (const name of Object.keys(process.env)) if (!(name in atStart)) delete process.env[name];
  Object.assign(process.env, atStart);
}
