import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { earlyScript } from '../shared/src/build/early-script.ts';
import { precompressed } from '../shared/src/build/precompress.ts';
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
  // The page's early script (src/early.ts) sends the opened screen's first requests.
  // Each script and style sheet also as <file>.br, brotli's best, for the browsers that take it.
  plugins: [react(), earlyScript(fileURLToPath(new URL('./src/early.ts', import.meta.url))), precompressed()],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: productionBuild.chunkSizeWarningLimit },
  ...(command === 'build'
    ? { resolve: productionBuild.resolve, define: productionBuild.define, oxc: productionBuild.oxc }
    : {}),
  server: apiUrl ? { proxy: { '/api': { target: apiUrl, changeOrigin: false } } } : undefined,
}));
