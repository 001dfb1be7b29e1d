import type { UserConfig } from 'vite';

/**
 * What both apps' `vite build` shares (issue 16): a production build wherever it runs. Vitest sets
 * NODE_ENV=test and the e2e tests and `npm start` build inside such processes; Vite then picks the
 * libraries' `development` export condition and React's development build. So the build names
 * the `production` condition and NODE_ENV itself, and compiles JSX for production.
 *
 * Chunk size: AG Grid's chunk (DataTable, about 750 kB, 215 kB gzip) is the one chunk over Vite's
 * 500 kB warning. No page loads it first: tables show their first page as plain HTML and the grid
 * loads when a person reaches for one (shared/src/ui/components/LazyDataTable.tsx); the grid itself cannot be
 * split further. The limit is set just above it, so any other chunk that grows that far still
 * warns, and the build test (shared/src/build/build.test.ts) fails on any warning.
 */
export const productionBuild = {
  resolve: { conditions: ['module', 'browser', 'production'] },
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  oxc: { jsx: { runtime: 'automatic', development: false } },
  chunkSizeWarningLimit: 800,
  /**
   * Rolldown warns when plugins take a large share of the build; the brotli pass (precompress.ts,
   * quality 11 on every script and style sheet) takes seconds by design, more on a busy machine, so
   * that warning said nothing a reader could act on and came and went with the load.
   */
  checks: { bundlerTimings: false },
} as const satisfies Pick<UserConfig, 'resolve' | 'define' | 'oxc'> & {
  chunkSizeWarningLimit: number;
  checks: { bundlerTimings: boolean };
};
