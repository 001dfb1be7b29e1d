import { defineConfig } from 'vitest/config';
import { deployedBundles } from './test/infra/bundles-plugin.ts';
import { ProjectTimesReporter } from './test/project-times.ts';

/**
 * The handler tests the `bundles` project runs again against the deployed bundles: every file
 * that calls handlers and asserts only what they answer and store. Not these, by design: auth and
 * money-movement (an injected clock and injected crashes reach the source modules, not a
 * bundle's own copy), the faults-import/race/unknown files (faults injected into source
 * modules), address and verify-email (the embedded address search and the mail outbox are kept
 * out of every bundle: a bundle calls Amazon Location and SES), and the files that start the
 * local runtime or seed the demo (they run the source modules, as npm start does).
 */
const BUNDLE_TESTS = [
  'accounts',
  'api-compression',
  'authorization-table',
  'authorization',
  'catalogue',
  'commissions-read',
  'cursors',
  'faults-secrets',
  'faults-stripe',
  'http',
  'import-recovery',
  'orders',
  'payment-config',
  'payment-intent',
  'payouts',
  'rejected-rows',
  's3-gate',
  'share-codes',
  'stripe-webhook',
].map((name) => `test/handlers/${name}.test.ts`);
/** The project's check that a handler import there is the bundle's (not picked up by `infra`). */
BUNDLE_TESTS.push('test/infra/deployed-bundles.spec.ts');

// Every password a test makes (the global setups' portal included) is hashed at scrypt 2^12
// instead of 2^17, 333 ms a hash here; honoured inside Vitest only (functions/src/auth/passwords.ts).
process.env.PASSWORD_HASH_LOG2_N_IN_TESTS ??= '12';

/**
 * `npm test` runs every project: unit tests beside the code, UI component tests in jsdom,
 * handler tests against DynamoDB Local and the S3 server, CDK template assertions, and the
 * browser end-to-end walk against the started portal.
 */
export default defineConfig({
  test: {
    // The default report, then each project's time (CI's log says where its minutes went).
    reporters: ['default', new ProjectTimesReporter()],
    // Three files at a time on the 2-core machine, not Vitest's default of cores - 1 (one): the
    // handler and bundle files mostly wait on DynamoDB Local, the S3 server and the emulator, each
    // file with a table, an outbox and a webhook secret of its own (test/handlers/setup.ts).
    // The browser files stay one at a time (fileParallelism below); `npm test` runs them in a
    // Vitest process beside this one (scripts/vitest-side-by-side.mjs, decision 0360).
    maxWorkers: 3,
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'shared/src/**/*.test.ts',
            'functions/src/**/*.test.ts',
            'infra/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          environment: 'node',
          // The files of a worker share it, each with its own copy of our modules and the worker's
          // first environment (test/fresh-file.ts): the packages load once per worker, not per file
          // (decision 0472).
          isolate: false,
          setupFiles: ['test/file-setup.ts'],
          // A limit for a hung test, not a speed claim: the generated-value tests run 50,000 cases
          // on a core shared with two other files and the browser line (Vitest's 5 s timed one
          // out in a clean-clone run).
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'ui',
          include: ['shared/src/**/*.test.tsx', 'web-member/src/**/*.test.tsx', 'web-admin/src/**/*.test.tsx'],
          environment: 'jsdom',
          // One jsdom window and the packages per worker, each file with its own modules and a
          // window as a fresh one (test/ui-setup.ts; decision 0472).
          isolate: false,
          setupFiles: ['test/ui-setup.ts'],
          // A limit for a hung test, not a speed claim: three files at a time beside the browser
          // line; Vitest's 5 s timed out 43 component tests of a clean-clone run under load.
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'handlers',
          include: ['test/handlers/**/*.test.ts'],
          globalSetup: ['test/handlers/global-setup.ts'],
          // A worker's files share it, each with its own modules, table and environment
          // (test/handlers/setup.ts, test/fresh-file.ts; decision 0472).
          isolate: false,
          setupFiles: ['test/handlers/setup.ts'],
          // Limits for a hung call, not speed claims: a file shares the two cores with two other
          // files and the browser line, and the demo seeds took over 30 s at times under load.
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        // Handler tests again, against the esbuild bundles the stack deploys, loaded as Lambda
        // loads them (test/infra/bundles-plugin.ts, infra/lib/deployed-bundles.ts).
        plugins: [deployedBundles()],
        test: {
          name: 'bundles',
          include: BUNDLE_TESTS,
          globalSetup: ['test/handlers/global-setup.ts', 'test/infra/bundles-setup.ts'],
          setupFiles: ['test/handlers/setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/e2e/global-setup.ts'],
          // One worker for the files, one after the other, each with its own modules and one
          // Chromium for all (test/e2e/browser.ts; decision 0472).
          isolate: false,
          setupFiles: ['test/file-setup.ts'],
          fileParallelism: false,
          testTimeout: 90_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
