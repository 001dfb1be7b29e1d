import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { buildInfo } from '../shared/src/build/build-info.ts';
import { appChunkGroups } from '../shared/src/build/chunks.ts';
import { earlyScript } from '../shared/src/build/early-script.ts';
import { precompressed } from '../shared/src/build/precompress.ts';
import { screenChunksOf } from '../shared/src/build/preload-chunks.ts';
import { productionBuild } from '../shared/src/build/production.ts';

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
  // The page's early script (src/early.ts) sends the opened screen's first requests; the shop
  // page's and the detail's screen chunks are preloaded by the early script. The page preloads
  // only what its entry imports (Vite's own links): the API's schemas and zod (the `api` chunk)
  // load with the screens that check a form, none of which is a first screen.
  plugins: [
    react(),
    earlyScript(fileURLToPath(new URL('./src/early.ts', import.meta.url))),
    // Each script and style sheet also as <file>.br, brotli's best, for the browsers that take it.
    precompressed(),
    // build.json: whether this build checks every answer (a test build), so a deploy can refuse it.
    buildInfo(),
    screenChunksOf({
      shop: ['/src/screens/shop/ShopScreen.tsx'],
      detail: ['/src/screens/ProductDetailScreen.tsx'],
      account: ['/src/screens/MyAccountScreen.tsx'],
    }),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: productionBuild.chunkSizeWarningLimit,
    // The API's schemas and zod in one chunk no first screen loads, the libraries each in a file
    // of their own (shared/src/build/chunks.ts).
    rolldownOptions: { checks: productionBuild.checks, output: { codeSplitting: { groups: appChunkGroups } } },
  },
  ...(command === 'build'
    ? { resolve: productionBuild.resolve, define: productionBuild.define, oxc: productionBuild.oxc }
    : {}),
  server: apiUrl ? { proxy: { '/api': { target: apiUrl, changeOrigin: false } } } : undefined,
}));
