import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readBuildInfo } from '@portal/shared/build/build-info';
import { PRECOMPRESS_LATER_ENV, precompressDist } from '@portal/shared/build/precompress';
import { takeLock } from './data-lock';

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
 *
 * What Vite said while building (its warnings and errors) is kept beside the build, in
 * node_modules/.cache/portal-web-build/<app>.json, for the build test (shared/src/build/build.test.ts),
 * which reads it and the built files instead of building both apps a second time in the same run
 * (decision 0360).
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

/** What Vite said while building an app's current `dist`: kept with the build's time and kind. */
interface BuildRecord {
  builtAt: number;
  checksAnswers: boolean;
  said: string[];
}

const recordFile = (root: string, app: string) =>
  join(root, 'node_modules', '.cache', 'portal-web-build', `${app}.json`);

/**
 * The warnings and errors Vite wrote while making the app's `dist` as it is now (kept by
 * `buildWebApps`), or undefined when that build was not made by it (made before, elsewhere, or
 * replaced since).
 */
export function webBuildRecord(root: string, app: string): { said: string[] } | undefined {
  const built = join(root, app, 'dist', 'index.html');
  if (!existsSync(built)) return undefined;
  try {
    const record = JSON.parse(readFileSync(recordFile(root, app), 'utf8')) as BuildRecord;
    const current =
      record.builtAt === statSync(built).mtimeMs &&
      record.checksAnswers === readBuildInfo(join(root, app, 'dist'))?.checksAnswers;
    return current && Array.isArray(record.said) ? { said: record.said } : undefined;
  } catch {
    return undefined;
  }
}

const staleApps = (root: string) => apps.filter((app) => !isBuildCurrent(root, app) || !webBuildRecord(root, app));

/**
 * Builds the apps whose build is not current; returns the ones it built. `precompressLater`: the
 * builds leave their `.br` files to `precompressApps` (`npm start`, which serves its first page
 * before brotli's best quality has gone over every script: decision 0370). One process at a time
 * (a lock in node_modules/.cache/portal-web-build): `npm test` runs the browser tests beside the
 * others, whose build test asks for the same build, and `npm start` may start meanwhile.
 */
export async function buildWebApps(root: string, options: { precompressLater?: boolean } = {}): Promise<string[]> {
  if (staleApps(root).length === 0) return [];
  const lockDir = join(root, 'node_modules', '.cache', 'portal-web-build');
  mkdirSync(lockDir, { recursive: true });
  let unlock: (() => void) | undefined;
  while (!(unlock = takeLock(join(lockDir, 'build.lock')))) await new Promise((resolve) => setTimeout(resolve, 250));
  try {
    return await buildStale(root, options.precompressLater ?? false);
  } finally {
    unlock();
  }
}

async function buildStale(root: string, precompressLater: boolean): Promise<string[]> {
  const stale = staleApps(root);
  if (stale.length === 0) return stale;
  // Vite (about 0.3 s to load) only when there is something to build.
  const { build, createLogger } = await import('vite');
  const before = process.env[PRECOMPRESS_LATER_ENV];
  if (precompressLater) process.env[PRECOMPRESS_LATER_ENV] = '1';
  try {
    // One after the other: two Vite builds at once gain little on two cores and interleave their errors.
    for (const app of stale) {
      // Vite's warnings and errors are printed as before, and kept for the build test.
      const said: string[] = [];
      const base = createLogger('warn');
      const customLogger = {
        ...base,
        warn: (message: string, options?: Parameters<typeof base.warn>[1]) => {
          said.push(`warning: ${message}`);
          base.warn(message, options);
        },
        warnOnce: (message: string, options?: Parameters<typeof base.warnOnce>[1]) => {
          said.push(`warning: ${message}`);
          base.warnOnce(message, options);
        },
        error: (message: string, options?: Parameters<typeof base.error>[1]) => {
          said.push(`error: ${message}`);
          base.error(message, options);
        },
      };
      await build({
        root: join(root, app),
        configFile: join(root, app, 'vite.config.ts'),
        customLogger,
        logLevel: 'warn',
      });
      const dist = join(root, app, 'dist');
      const record: BuildRecord = {
        builtAt: statSync(join(dist, 'index.html')).mtimeMs,
        checksAnswers: readBuildInfo(dist)?.checksAnswers ?? false,
        said,
      };
      writeFileSync(recordFile(root, app), `${JSON.stringify(record)}\n`);
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
