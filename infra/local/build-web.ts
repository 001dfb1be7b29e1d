import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readBuildInfo } from '@portal/shared/build/build-info';
import { PRECOMPRESS_LATER_ENV, precompressDist } from '@portal/shared/build/precompress';

/**
 * Builds the two apps with Vite when their sources are newer than their last build, or when the
 * last build is of the other kind, so a second `npm start` serves at once. The same `vite build`
 * runs before `cdk deploy`.
 *
 * Two kinds: a build made where NODE_ENV is `test` or `development` (the browser tests, inside
 * Vitest) checks every API answer against its contract and loads the schemas with the first call;
 * one made where it is `production` or unset (`npm start`, `npm run build:web`) does not. Each build
 * says which it is in `build.json` (shared/src/build/build-info.ts), so `npm start` after `npm test`
 * does not serve the tests' build, nor the tests the portal's.
 */
const apps = ['web-member', 'web-admin'] as const;

function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    latest = Math.max(latest, newest(join(path, entry)));
  }
  return latest;
}

/** Whether a Vite build made in this process checks every answer (Vite's `import.meta.env.DEV`). */
export function buildsCheckAnswers(env: { NODE_ENV?: string } = process.env): boolean {
  return env.NODE_ENV !== undefined && env.NODE_ENV !== 'production';
}

export function isBuildCurrent(root: string, app: string, checksAnswers = buildsCheckAnswers()): boolean {
  const dist = join(root, app, 'dist');
  const built = join(dist, 'index.html');
  if (!existsSync(built)) return false;
  if (readBuildInfo(dist)?.checksAnswers !== checksAnswers) return false;
  const sources = Math.max(newest(join(root, app)), newest(join(root, 'shared', 'src')));
  return statSync(built).mtimeMs >= sources;
}

/**
 * `precompressLater`: the builds leave their `.br` files to `precompressApps` (`npm start`, which
 * serves its first page before brotli's best quality has gone over every script: decision 0370).
 */
export async function buildWebApps(root: string, options: { precompressLater?: boolean } = {}): Promise<string[]> {
  const stale = apps.filter((app) => !isBuildCurrent(root, app));
  if (stale.length === 0) return stale;
  // Vite (about 0.3 s to load) only when there is something to build.
  const { build } = await import('vite');
  const before = process.env[PRECOMPRESS_LATER_ENV];
  if (options.precompressLater) process.env[PRECOMPRESS_LATER_ENV] = '1';
  try {
    // One after the other: two Vite builds at once gain little on two cores and interleave their errors.
    for (const app of stale) {
      await build({ root: join(root, app), configFile: join(root, app, 'vite.config.ts'), logLevel: 'warn' });
    }
  } finally {
    if (before === undefined) delete process.env[PRECOMPRESS_LATER_ENV];
    else process.env[PRECOMPRESS_LATER_ENV] = before;
  }
  return stale;
}

/** Writes the `.br` files a build left to later, or a stopped start did not finish; answers how many. */
export async function precompressApps(root: string): Promise<number> {
  const written = await Promise.all(apps.map((app) => precompressDist(join(root, app, 'dist'))));
  return written.reduce((sum, count) => sum + count, 0);
}
