import { defineConfig } from 'vitest/config';

/**
 * `npm test` runs every project: unit tests beside the code, UI component tests in jsdom,
 * handler tests against DynamoDB Local and the S3 server, CDK template assertions, and the
 * browser end-to-end walk against the started portal.
 */
export default defineConfig({
  test: {
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
        },
      },
      {
        test: {
          name: 'ui',
          include: ['shared/src/**/*.test.tsx', 'web-member/src/**/*.test.tsx', 'web-admin/src/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['test/ui-setup.ts'],
        },
      },
      {
        test: {
          name: 'handlers',
          include: ['test/handlers/**/*.test.ts'],
          globalSetup: ['test/handlers/global-setup.ts'],
          setupFiles: ['test/handlers/setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
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
          fileParallelism: false,
          testTimeout: 90_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
