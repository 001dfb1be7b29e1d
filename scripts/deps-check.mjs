/**
 * Which packages of the lockfile are not installed at the locked version. `installed` is npm's
 * own record of node_modules (node_modules/.package-lock.json). Optional packages may be absent
 * (platform-specific binaries of other systems), but not at another version.
 * @param {{ packages?: Record<string, { version?: string; link?: boolean; optional?: boolean }> }} lock
 * @param {{ packages?: Record<string, { version?: string }> } | undefined} installed
 * @returns {string[]}
 */
export function outOfDate(lock, installed) {
  const have = installed?.packages ?? {};
  const stale = [];
  for (const [path, entry] of Object.entries(lock.packages ?? {})) {
    if (!path.includes('node_modules/') || entry.link) continue;
    const got = have[path];
    if (got ? got.version !== entry.version : !entry.optional) stale.push(path);
  }
  return stale;
}
