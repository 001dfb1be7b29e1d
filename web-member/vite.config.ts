import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
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
    screenChunksOf({
      shop: ['/src/screens/shop/ShopScreen.tsx'],
      detail: ['/src/screens/ProductDetailScreen.tsx'],
    }),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: productionBuild.chunkSizeWarningLimit,
    // The API's schemas and zod (everything under shared/src/api but the client, which the entry
    // carries) are one chunk, not six small ones: the screens that check a form load it, and each
    // request is one more in the queue (issue 16). No first screen needs it: a production build
    // does not check answers (shared/src/api/client.ts).
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'api', test: /[\\/](shared[\\/]src[\\/]api[\\/](?!client)[^\\/]+\.ts|node_modules[\\/]zod[\\/])/ },
            // The libraries each in a file of their own (React first, so the router's group does not
            // take it in), fetched in parallel with the app's entry (issue 16). The bundler's runtime
            // and Vite's preload helper, which every page loads too, ride with React: alone they were
            // two more requests of half a kilobyte each before the first paint, each waiting its turn
            // for one of the browser's six connections and carrying a kilobyte of headers.
            {
              name: 'react',
              test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]|^\0(rolldown\/runtime|vite\/preload-helper)/,
              priority: 2,
            },
            { name: 'router', test: /[\\/]node_modules[\\/]react-router(-dom)?[\\/]/, priority: 1 },
            { name: 'query', test: /[\\/]node_modules[\\/]@tanstack[\\/]/, priority: 1 },
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
