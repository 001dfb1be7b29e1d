/**
 * The import resolver ESLint's boundaries rules use (resolver interface v2): TypeScript's own module
 * resolution with the repository's compiler options, so `@portal/shared/...` (package exports),
 * extensionless relative imports and `.tsx` files resolve exactly as the type check resolves them.
 * Assets TypeScript does not resolve (`./styles.css`) resolve to the file when it exists.
 */
'use strict';
const { existsSync } = require('node:fs');
const { builtinModules } = require('node:module');
const { dirname, join, resolve } = require('node:path');
const ts = require('typescript');

const ROOT = resolve(__dirname, '../..');
let options;

function compilerOptions() {
  if (options) return options;
  const file = join(ROOT, 'tsconfig.json');
  const { config } = ts.readConfigFile(file, ts.sys.readFile);
  options = ts.parseJsonConfigFileContent(config, ts.sys, ROOT, undefined, file).options;
  return options;
}

const cache = ts.createModuleResolutionCache(ROOT, (name) => name, undefined);

/** The absolute path `source` imported from `file` resolves to, or null (a package, a builtin, or nothing). */
function resolvePath(source, file) {
  const bare = source.replace(/[?#].*$/, '');
  if (bare.startsWith('node:') || builtinModules.includes(bare)) return null;
  const { resolvedModule } = ts.resolveModuleName(bare, file, compilerOptions(), ts.sys, cache);
  if (resolvedModule) return resolvedModule.resolvedFileName;
  if (bare.startsWith('.')) {
    const path = resolve(dirname(file), bare);
    if (existsSync(path)) return path;
  }
  return null;
}

module.exports = {
  interfaceVersion: 2,
  resolvePath,
  resolve(source, file) {
    const bare = source.replace(/[?#].*$/, '');
    if (bare.startsWith('node:') || builtinModules.includes(bare)) return { found: true, path: null };
    const path = resolvePath(source, file);
    return path ? { found: true, path } : { found: false };
  },
};
