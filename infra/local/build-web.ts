import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Builds the two apps with Vite when their sources are newer than their last build, so a
 * second `npm start` serves at once. The same `vite build` runs before `cdk deploy`.
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

function isBuildCurrent(root: string, app: string): boolean {
  const built = join(root, app, 'dist', 'index.html');
  if (!existsSync(built)) return false;
  const sources = Math.max(newest(join(root, app)), newest(join(root, 'shared', 'src')));
  return statSync(built).mtimeMs >= sources;
}

export async function buildWebApps(root: string): Promise<string[]> {
  const stale = apps.filter((app) => !isBuildCurrent(root, app));
  if (stale.length === 0) return stale;
  // Vite (about 0.3 s to load) only when there is something to build.
  const { build } = await import('vite');
  // One after the other: two Vite builds at once gain little on two cores and interleave their errors.
  for (const app of stale) {
    await build({ root: join(root, app), configFile: join(root, app, 'vite.config.ts'), logLevel: 'warn' });
  }
  return stale;
}
