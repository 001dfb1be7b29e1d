import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

/**
 * For the `bundles` test project: a test's import of a handler module
 * (`../../functions/src/handlers/signup`, one per function of the route table) gets the deployed
 * bundle's `handler` instead, required from the folder bundles-setup.ts built
 * (infra/lib/deployed-bundles.ts); a handler the route table does not deploy has no bundle, and
 * its import fails. Everything else the tests import (helpers, adapters to look at the table)
 * stays the source. (The vitest config loads this file with Node alone: no route table here.)
 */
const functionsSrc = fileURLToPath(new URL('../../functions/src/', import.meta.url));
const PREFIX = '\0deployed-bundle:';

export function deployedBundles(): Plugin {
  return {
    name: 'portal-deployed-bundles',
    enforce: 'pre',
    resolveId(source, importer) {
      const fromTest = /\/test\/(handlers\/[^/]+\.ts|infra\/deployed-bundles\.spec\.ts)$/.test(importer ?? '');
      if (!importer || !fromTest || !source.startsWith('.')) return null;
      const module = path.relative(functionsSrc, path.resolve(path.dirname(importer), source)).replace(/\.ts$/, '');
      return module.startsWith('handlers/') ? `${PREFIX}${module}.ts` : null;
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const module = id.slice(PREFIX.length);
      return [
        "import { inject } from 'vitest';",
        `import { loadDeployedHandler } from ${JSON.stringify(fileURLToPath(new URL('../../infra/lib/deployed-bundles.ts', import.meta.url)))};`,
        `export const handler = loadDeployedHandler(inject('deployedBundlesDir'), ${JSON.stringify(module)});`,
      ].join('\n');
    },
  };
}
