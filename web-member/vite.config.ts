import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { earlyScript } from '../shared/src/build/early-script.ts';
import { preloadChunksOf, screenChunksOf } from '../shared/src/build/preload-chunks.ts';
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
  // The page's early script (src/early.ts) sends the opened screen's first requests; the API's
  // schemas load with the first call (shared/src/api/client.ts): fetched with the page. The shop
  // page's and the detail's screen chunks are preloaded by the early script.
  plugins: [
    react(),
    earlyScript(fileURLToPath(new URL('./src/early.ts', import.meta.url))),
    preloadChunksOf(['/shared/src/api/contract.ts', '/shared/src/api/schemas.ts']),
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
    // carries) are one chunk, not six small ones: every page asks for them with its first call,
    // and each request is one more in the queue before the first picture (issue 16).
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'api', test: /[\\/](shared[\\/]src[\\/]api[\\/](?!client)[^\\/]+\.ts|node_modules[\\/]zod[\\/])/ },
            // The libraries each in a file of their own (React first, so the router's group does not
            // take it in), fetched in parallel with the app's entry (issue 16).
            { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 2 },
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
