import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import boundaries from 'eslint-plugin-boundaries';
import globals from 'globals';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * Who may import whom (docs/architecture.md, "Boundaries"). Elements are folders, matched from the
 * repository root, so files in later subfolders (shared/src/api/calls/…, shared/src/ui/components/…)
 * belong to the same element. The three files at the top of functions/src are classified as files.
 */
const CAPABILITY_EXCLUDED = 'handlers|adapters|http|config|lib|utils|helpers|ports|common|shared';
const elements = [
  { type: 'fn-handlers', pattern: 'functions/src/handlers' },
  // each capability's adapters folder; the common adapter helpers beside them are files (below)
  { type: 'fn-adapters', pattern: 'functions/src/adapters/*', capture: ['capability'] },
  { type: 'fn-http', pattern: 'functions/src/http' },
  { type: 'fn-config', pattern: 'functions/src/config' },
  // every other folder of functions/src is a capability; a lib/, utils/, helpers/ or ports/ folder is none
  // of them, so its files are unknown and `boundaries/no-unknown-files` refuses them
  { type: 'fn-capability', pattern: `functions/src/!(${CAPABILITY_EXCLUDED})`, capture: ['capability'] },
  { type: 'shared-api', pattern: 'shared/src/api' },
  { type: 'shared-db', pattern: 'shared/src/db' },
  { type: 'shared-domain', pattern: 'shared/src/domain' },
  { type: 'shared-query', pattern: 'shared/src/query' },
  { type: 'shared-ui', pattern: 'shared/src/ui' },
  { type: 'shared-build', pattern: 'shared/src/build' },
  { type: 'web-member', pattern: 'web-member' },
  { type: 'web-admin', pattern: 'web-admin' },
  { type: 'infra', pattern: 'infra' },
  { type: 'scripts', pattern: 'scripts' },
  { type: 'tests', pattern: 'test' },
].map((element) => ({ ...element, partialMatch: false }));

const files = [
  { category: 'fn-composition', pattern: 'functions/src/composition.ts' },
  { category: 'fn-errors', pattern: 'functions/src/errors.ts' },
  { category: 'fn-routes', pattern: 'functions/src/routes.ts' },
  // the common adapter helpers (dynamo-client.ts): every adapters folder may use them
  { category: 'fn-adapter-helpers', pattern: 'functions/src/adapters/*.ts' },
  { category: 'test', pattern: ['**/*.test.{ts,tsx}', '**/{testing,*Testing}.{ts,tsx}'] },
];

const element = (...types) => ({ element: { types } });
const file = (...categories) => ({ file: { categories } });
const SHARED_PURE = [element('shared-api', 'shared-domain')];

/** Each element may import itself and what its policy lists; anything else is an error. */
const policies = [
  {
    from: element('fn-handlers'),
    allow: {
      to: [element('fn-capability', 'fn-http', 'fn-config'), file('fn-composition', 'fn-errors'), ...SHARED_PURE],
    },
  },
  {
    from: file('fn-composition'),
    allow: {
      to: [
        element('fn-adapters', 'fn-capability', 'fn-http', 'fn-config', 'shared-db'),
        file('fn-adapter-helpers', 'fn-errors'),
        ...SHARED_PURE,
      ],
    },
  },
  { from: file('fn-routes'), allow: { to: [element('fn-config', 'shared-api')] } },
  // an adapters folder (functions/src/adapters/<capability>/) reaches its own capability, the shared
  // modules and the common adapter helpers, never another capability's adapters folder (decision 0401)
  {
    from: element('fn-adapters'),
    allow: {
      to: [
        { element: { types: ['fn-adapters'], captured: { capability: '{{ from.captured.capability }}' } } },
        element('fn-capability', 'fn-config', 'shared-db'),
        file('fn-adapter-helpers', 'fn-errors'),
        ...SHARED_PURE,
      ],
    },
  },
  {
    // the common helpers build on one another (the table client); never on a capability's folder
    from: file('fn-adapter-helpers'),
    allow: {
      to: [element('fn-capability', 'fn-config', 'shared-db'), file('fn-adapter-helpers', 'fn-errors'), ...SHARED_PURE],
    },
  },
  { from: element('fn-http'), allow: { to: [element('fn-config'), file('fn-errors'), ...SHARED_PURE] } },
  {
    from: element('fn-capability'),
    allow: { to: [element('fn-capability', 'fn-config'), file('fn-errors'), ...SHARED_PURE] },
  },
  { from: element('fn-config'), allow: { to: [file('fn-errors'), element('shared-api')] } },
  // the error kinds name the API's error body (a type)
  { from: file('fn-errors'), allow: { dependency: { kind: 'type' }, to: [element('shared-api')] } },
  { from: element('shared-domain'), allow: { to: [element('shared-api')] } },
  // the table's keys and conditions are built from the domain's pure rules (the sales statuses)
  { from: element('shared-db'), allow: { to: [element('shared-domain', 'shared-api')] } },
  { from: element('shared-query'), allow: { to: [...SHARED_PURE] } },
  // the query layer names the auth store's type; no value crosses from the UI into it
  { from: element('shared-query'), allow: { dependency: { kind: 'type' }, to: [element('shared-ui')] } },
  { from: element('shared-ui'), allow: { to: [element('shared-query'), ...SHARED_PURE] } },
  {
    from: element('web-member', 'web-admin'),
    allow: { to: [element('shared-ui', 'shared-query', 'shared-build'), ...SHARED_PURE] },
  },
  // the CDK app, the local runtime, scripts and tests drive the whole backend; none of them is imported
  {
    from: element('infra', 'scripts', 'tests'),
    allow: {
      to: [
        element('fn-*', 'shared-*', 'infra', 'scripts', 'tests'),
        file('fn-composition', 'fn-errors', 'fn-routes', 'fn-adapter-helpers'),
      ],
    },
  },
  // a test may reach what it tests and its fixtures, wherever they live
  { from: file('test'), allow: { to: [element('*'), file('*')] } },
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'cdk.out/**', '.local/**', 'coverage/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    files: ['**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['**/*.{ts,tsx,js,mjs,cjs}'],
    plugins: { boundaries },
    settings: {
      'boundaries/root-path': import.meta.dirname,
      'boundaries/elements': elements,
      'boundaries/files': files,
      'import/resolver': { [require.resolve('./scripts/architecture/import-resolver.cjs')]: {} },
    },
    rules: {
      'boundaries/dependencies': ['error', { default: 'disallow', policies }],
    },
  },
  {
    // CommonJS files (the import resolver ESLint loads with require) load their dependencies with require
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // a handler reads the one clock (functions/src/config/clock.ts), which tests move; never the system's
    files: ['functions/src/handlers/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'Read the one clock: new Date(clock.now()) (functions/src/config/clock.ts).',
        },
        {
          selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message: 'Read the one clock: clock.now() (functions/src/config/clock.ts).',
        },
      ],
    },
  },
  {
    // a file outside every element would escape the policies: in the code that ships, name its place first
    files: ['functions/src/**', 'shared/src/**'],
    rules: { 'boundaries/no-unknown-files': 'error' },
  },
);
