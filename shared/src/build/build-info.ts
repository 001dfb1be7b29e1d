import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';

/** The file beside `index.html` that says how an app was built. */
export const BUILD_INFO_FILE = 'build.json';

/** What `build.json` holds. */
export interface BuildInfo {
  /**
   * Vite's `import.meta.env.DEV` for this build: true when it ran where NODE_ENV was not
   * `production` (inside Vitest, as the browser tests and `npm start` under them build). Such a
   * build checks every API answer against its contract and loads the schemas and zod with the
   * first call (shared/src/api/client.ts): right for tests, not what a deploy should upload.
   */
  checksAnswers: boolean;
}

/**
 * A Vite build plugin for both apps: writes `build.json` into the build, so the stack can refuse to
 * upload a build made for tests (infra/lib/portal-stack.ts) instead of shipping it unnoticed.
 */
export function buildInfo(): Plugin {
  let info: BuildInfo = { checksAnswers: false };
  return {
    name: 'portal-build-info',
    apply: 'build',
    configResolved(config) {
      info = { checksAnswers: config.env.DEV === true };
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: BUILD_INFO_FILE, source: `${JSON.stringify(info)}\n` });
    },
  };
}

/** What a built app's `build.json` says; undefined when it has none, or none that says it. */
export function readBuildInfo(dist: string): BuildInfo | undefined {
  try {
    const info = JSON.parse(readFileSync(join(dist, BUILD_INFO_FILE), 'utf8')) as { checksAnswers?: unknown };
    return typeof info.checksAnswers === 'boolean' ? { checksAnswers: info.checksAnswers } : undefined;
  } catch {
    return undefined;
  }
}
