import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { preactAliases } from '../shared/src/build/preact-alias.ts';
import { preloadChunksOf, screenChunksOf } from '../shared/src/build/preload-chunks.ts';

/**
 * The member app, served at '/' on the same origin as /api. Building from any working directory
 * gives web-member/dist. For `vite` dev, set PORTAL_API_URL (e.g. http://localhost:3000) to proxy /api
 * to a running `npm start`.
 */
const root = fileURLToPath(new URL('.', import.meta.url));
const apiUrl = process.env.PORTAL_API_URL;

export default defineConfig(({ command }) => ({
  root,
  base: '/',
  // The API's schemas load with the first call (shared/src/api/client.ts): fetched with the page.
  // The shop page's and the detail's screen chunks are preloaded by public/early-requests.js.
  plugins: [
    react(),
    preloadChunksOf(['/shared/src/api/contract.ts', '/shared/src/api/schemas.ts']),
    screenChunksOf({
      shop: ['/src/screens/shop/ShopScreen.tsx'],
      detail: ['/src/screens/ProductDetailScreen.tsx'],
    }),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The API's schemas and zod (everything under shared/src/api but the client, which the entry
    // carries) are one chunk, not six small ones: every page asks for them with its first call,
    // and each request is one more in the queue before the first picture (issue 16).
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'api', test: /[\\/](shared[\\/]src[\\/]api[\\/](?!client)[^\\/]+\.ts|node_modules[\\/]zod[\\/])/ },
            // The libraries each in a file of their own (Preact first, so the router's group does not
            // take it in): each 10-14 KiB over the wire, so each arrives in one round trip of a new
            // connection, in parallel with the app's entry; one 31 KiB entry needed more (issue 16).
            { name: 'preact', test: /[\\/]node_modules[\\/]preact[\\/]/, priority: 2 },
            { name: 'router', test: /[\\/]node_modules[\\/]react-router(-dom)?[\\/]/, priority: 1 },
            { name: 'query', test: /[\\/]node_modules[\\/]@tanstack[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
  // Built on Preact's React API (shared/src/build/preact-alias.ts); `vite` dev keeps React.
  resolve: command === 'build' ? { alias: preactAliases } : undefined,
  // The served bundle is always React's production build, even when the build runs inside a test
  // run (Vitest sets NODE_ENV=test, which would otherwise select React's development build).
  define: command === 'build' ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {},
  oxc: command === 'build' ? { jsx: { runtime: 'automatic', development: false } } : undefined,
  server: apiUrl ? { proxy: { '/api': { target: apiUrl, changeOrigin: false } } } : undefined,
}));
