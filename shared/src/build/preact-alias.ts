import type { Alias } from 'vite';

/**
 * Vite aliases that build an app on Preact (preact/compat) instead of React DOM (issue 16): the
 * same React API for our code and its libraries (react-router, TanStack Query, Stripe's React
 * elements, AG Grid's React grid), about 14 KiB instead of React DOM's 60 KiB on the wire, and far
 * less to evaluate before the first render. Only the build uses them; the sources and their types
 * are React's, and the ui tests (Testing Library in jsdom) run against React.
 */
export const preactAliases: Alias[] = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
  { find: /^react$/, replacement: 'preact/compat' },
];
