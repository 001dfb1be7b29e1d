import { ESLint } from 'eslint';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The import boundaries of docs/architecture.md as the repository's ESLint configuration enforces
 * them: each case lints one virtual file (it exists only in memory) at a real place in the tree and
 * reads the boundaries rule's verdict. Forbidden imports must be reported; allowed ones must not.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
let eslint: ESLint;

// The first lint loads the configuration, its plugins and the import resolver (seconds under
// load): done here, with a limit for a hung start, so that no case carries it.
beforeAll(async () => {
  eslint = new ESLint({ cwd: ROOT });
  await eslint.lintText('export {};\n', { filePath: resolve(ROOT, 'functions/src/orders/probe.ts') });
}, 60_000);

/** The boundaries messages ESLint reports for `code` placed at `path` (relative to the repository root). */
async function boundaryErrors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(ROOT, path) });
  return result!.messages.filter((m) => m.ruleId?.startsWith('boundaries/')).map((m) => `${m.ruleId}: ${m.message}`);
}

const importing = (specifier: string) => `import * as imported from '${specifier}';\nexport const used = imported;\n`;
const importingType = (specifier: string, name: string) =>
  `import type { ${name} } from '${specifier}';\nexport type Used = ${name};\n`;

const forbidden: [string, string, string, string][] = [
  // [why, file, import, the element or category the error names]
  [
    'a capability never imports an adapter',
    'functions/src/orders/probe.ts',
    '../adapters/orders/dynamo-sales',
    'fn-adapters',
  ],
  [
    'a capability never imports its own grouped adapter',
    'functions/src/commissions/probe.ts',
    '../adapters/commissions/dynamo-refunds',
    'fn-adapters',
  ],
  ['a capability never imports the composition', 'functions/src/payments/probe.ts', '../composition', 'fn-composition'],
  ['a capability never imports a handler', 'functions/src/auth/probe.ts', '../handlers/login', 'fn-handlers'],
  ['a capability never imports the http stack', 'functions/src/products/probe.ts', '../http/api-handler', 'fn-http'],
  [
    'a new capability folder is held to the same rule',
    'functions/src/counters/probe.ts',
    '../adapters/orders/dynamo-sales',
    'fn-adapters',
  ],
  [
    'handlers take adapters from the composition only',
    'functions/src/handlers/probe.ts',
    '../adapters/orders/dynamo-sales',
    'fn-adapters',
  ],
  ['http/ knows no capability', 'functions/src/http/probe.ts', '../orders/present', 'fn-capability'],
  ['http/ knows no adapter', 'functions/src/http/probe.ts', '../adapters/orders/dynamo-sales', 'fn-adapters'],
  ['http/ knows no composition', 'functions/src/http/probe.ts', '../composition', 'fn-composition'],
  [
    'adapters never reach back to the composition',
    'functions/src/adapters/probe.ts',
    '../composition',
    'fn-composition',
  ],
  ['adapters never reach back to a handler', 'functions/src/adapters/probe.ts', '../handlers/login', 'fn-handlers'],
  [
    "an adapters folder never imports another capability's adapters",
    'functions/src/adapters/commissions/probe.ts',
    '../orders/dynamo-sales',
    'fn-adapters',
  ],
  [
    "the common adapter helpers never import a capability's adapters",
    'functions/src/adapters/probe.ts',
    './orders/dynamo-sales',
    'fn-adapters',
  ],
  ['config depends on nothing above it', 'functions/src/config/probe.ts', '../auth/tokens', 'fn-capability'],
  ['the route table imports no handler code', 'functions/src/routes.ts', './handlers/login', 'fn-handlers'],
  ['shared never imports functions', 'shared/src/domain/probe.ts', '../../../functions/src/errors', 'fn-errors'],
  [
    'shared never imports functions by package name',
    'shared/src/api/probe.ts',
    '@portal/functions/src/errors',
    'fn-errors',
  ],
  ['shared never imports infra', 'shared/src/domain/probe.ts', '../../../infra/local/ports', 'infra'],
  ['shared never imports an app', 'shared/src/ui/probe.tsx', '../../../web-member/src/MemberApp', 'web-member'],
  ['the contract never imports the UI', 'shared/src/api/probe.ts', '../ui/components/TopBar', 'shared-ui'],
  [
    'a contract module in a subfolder never imports the UI',
    'shared/src/api/calls/probe.ts',
    '../../ui/components/TopBar',
    'shared-ui',
  ],
  [
    'domain rules never import the UI',
    'shared/src/domain/probe.ts',
    '@portal/shared/ui/components/TopBar',
    'shared-ui',
  ],
  ['the query layer takes no value from the UI', 'shared/src/query/probe.ts', '../ui/hooks/authStore', 'shared-ui'],
  [
    'the member app never imports the admin app',
    'web-member/src/probe.ts',
    '../../web-admin/src/AdminApp',
    'web-admin',
  ],
  [
    'the admin app never imports the member app',
    'web-admin/src/probe.ts',
    '../../web-member/src/MemberApp',
    'web-member',
  ],
  ['an app never imports functions', 'web-admin/src/probe.ts', '../../functions/src/orders/present', 'fn-capability'],
  ['an app never imports infra', 'web-member/src/probe.ts', '../../infra/local/ports', 'infra'],
];

const allowed: [string, string, string][] = [
  ['a handler imports the composition', 'functions/src/handlers/probe.ts', '../composition'],
  ['a handler imports capability logic', 'functions/src/handlers/probe.ts', '../orders/present'],
  ['a handler imports its contract', 'functions/src/handlers/probe.ts', '@portal/shared/api/schemas'],
  ['the composition wires adapters', 'functions/src/composition.ts', './adapters/orders/dynamo-sales'],
  ['an adapter implements a capability port', 'functions/src/adapters/probe.ts', '../orders/sales-store'],
  [
    'a grouped adapter implements its capability port',
    'functions/src/adapters/orders/probe.ts',
    '../../orders/sales-store',
  ],
  ['a grouped adapter shares the table client', 'functions/src/adapters/commissions/probe.ts', '../dynamo-client'],
  ['a common adapter helper builds on the table client', 'functions/src/adapters/probe.ts', './dynamo-client'],
  [
    "a grouped adapter imports its own capability's adapters",
    'functions/src/adapters/orders/probe.ts',
    './dynamo-sales',
  ],
  [
    'a grouped adapter uses the common item shapes',
    'functions/src/adapters/commissions/probe.ts',
    '../dynamo-sales-items',
  ],
  ['a capability imports another capability', 'functions/src/commissions/probe.ts', '../orders/present'],
  ['a capability throws domain errors', 'functions/src/orders/probe.ts', '../errors'],
  ['the UI imports the contract', 'shared/src/ui/probe.tsx', '../api/schemas'],
  ['the UI in a subfolder imports the contract', 'shared/src/ui/components/probe.tsx', '../../api/schemas'],
  ['the UI in a subfolder imports the domain rules', 'shared/src/ui/hooks/probe.tsx', '@portal/shared/domain/money'],
  ['an app imports the shared UI', 'web-member/src/probe.ts', '@portal/shared/ui/components/TopBar'],
  ['a test reaches the local runtime', 'functions/src/adapters/probe.test.ts', '../../../infra/local/stripe'],
];

describe('import boundaries (ESLint, boundaries rules)', () => {
  it.each(forbidden)('refuses: %s', async (_why, path, specifier, target) => {
    const errors = await boundaryErrors(path, importing(specifier));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^boundaries\/dependencies: There is no policy allowing dependencies from /);
    expect(errors[0]).toContain(`"${target}"`);
  });

  it.each(allowed)('allows: %s', async (_why, path, specifier) => {
    expect(await boundaryErrors(path, importing(specifier))).toEqual([]);
  });

  it('lets the query layer name a UI type, and only a type', async () => {
    expect(
      await boundaryErrors('shared/src/query/probe.ts', importingType('../ui/hooks/authStore', 'AuthStore')),
    ).toEqual([]);
  });

  it.each(['lib', 'utils', 'helpers', 'ports'])('refuses a functions/src/%s/ folder', async (folder) => {
    expect(await boundaryErrors(`functions/src/${folder}/probe.ts`, 'export const value = 1;\n')).toEqual([
      'boundaries/no-unknown-files: File does not match any file pattern and does not belong to any known element',
    ]);
  });

  it.each(['functions/src/probe.ts', 'shared/src/probe.ts', 'shared/src/newfolder/probe.ts'])(
    'refuses %s until the configuration names its place',
    async (path) => {
      expect(await boundaryErrors(path, importing('../api/schemas'))).toEqual([
        'boundaries/no-unknown-files: File does not match any file pattern and does not belong to any known element',
      ]);
    },
  );
});
