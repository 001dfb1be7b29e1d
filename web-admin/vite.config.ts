import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { earlyScript } from '../shared/src/build/early-script.ts';
import { buildInfo } from '../shared/src/build/build-info.ts';
import { appChunkGroups } from '../shared/src/build/chunks.ts';
import { precompressed } from '../shared/src/build/precompress.ts';
import { screenChunksOf } from '../shared/src/build/preload-chunks.ts';
import { productionBuild } from '../shared/src/build/production.ts';

/**
 * The admin app, served at '/admin/' on the same origin as /api. Building from any working directory
 * gives web-admin/dist. For `vite` dev, set PORTAL_API_URL (e.g. http://localhost:3000) to proxy /api
 * to a running `npm start`.
 */
const root = fileURLToPath(new URL('.', import.meta.url));
const apiUrl = process.env.PORTAL_API_URL;

export default defineConfig(({ command }) => ({
  root,
  base: '/admin/',
  // The page's early script (src/early.ts) sends the opened screen's first requests and preloads
  // its screen's chunks, which the build names in the page (screenChunksOf; src/earlyScreens.ts).
  plugins: [
    react(),
    earlyScript(fileURLToPath(new URL('./src/early.ts', import.meta.url))),
    // Each script and style sheet also as <file>.br, brotli's best, for the browsers that take it.
    precompressed(),
    // build.json: whether this build checks every answer (a test build), so a deploy can refuse it.
    buildInfo(),
    screenChunksOf({
      home: ['/src/screens/AdminHomeScreen.tsx'],
      import: ['/src/screens/ProductImportScreen.tsx'],
      orders: ['/src/screens/OrdersScreen.tsx'],
    }),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: productionBuild.chunkSizeWarningLimit,
    // Every screen is a chunk of its own (src/screens/routeScreens.ts); the libraries and the API's
    // schemas are cut as in the member app (shared/src/build/chunks.ts).
    rolldownOptions: {
      checks: productionBuild.checks,
      output: {
        codeSplitting: {
          groups: [
            ...appChunkGroups,
            // The shared components, hooks, the API client and the constants the screens use in
            // one chunk, the sales screens' parts in another: a screen's page asks for a handful of
            // files, not fifteen. A group takes what its modules import too, so `ui` (ahead of
            // `sales`) names what the entry or several screens run: the sales queries and page
            // size (the landing data, landingData.ts) and the catalogue's queries and styles. Not
            // the grid and the sanitizer, which load when they are reached for; the constants have
            // no zod (a build test fails otherwise).
            {
              name: 'ui',
              test: /[\\/]shared[\\/]src[\\/]((ui|domain|query)[\\/](?!.*[\\/](DataTable|sanitize-description)\.)|api[\\/](client|limits|refund-reasons|carriers)\.ts)|[\\/]web-admin[\\/]src[\\/](saveTextFile|screens[\\/]productImportRoutes|sales[\\/](queries|pageSize)\.ts|catalogue[\\/](queries\.ts|catalogue\.css))/,
              priority: 1,
            },
            { name: 'sales', test: /[\\/]web-admin[\\/]src[\\/]sales[\\/](?!queries|pageSize)/ },
          ],
        },
      },
    },
  },
  ...(command === 'build'
    ? { resolve: productionBuild.resolve, define: productionBuild.define, oxc: productionBuild.oxc }
    : {}),
  server: apiUrl ? { proxy: { '/api': { target: apiUrl, changeOrigin: false } } } : undefined,
}));
