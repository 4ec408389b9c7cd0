import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { pureSharedSchemas } from './vite-plugins/pure-shared-schemas.js';

const api = 'http://localhost:3000';

// react-router's package exports name only its development build (warnings on, remix-run/react-router#12532); the
// production build beside it is the same code with them off. The build uses it; the dev server keeps the warnings.
const reactRouterProduction = join(
  dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist/production/index.mjs',
);

export default defineConfig(({ command }) => ({
  plugins: [pureSharedSchemas(), react()],
  resolve: {
    alias: command === 'build' ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : [],
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      '/v1': { target: api, changeOrigin: false },
      '/auth': { target: api, changeOrigin: false },
      '/cable': { target: api, ws: true, changeOrigin: false },
    },
  },
  preview: { port: 5173 },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Maps are written for the developer but not referenced from the bundles; the server serves them only in
    // development (platform/http/security-headers.ts).
    sourcemap: 'hidden',
    // dist/.vite/manifest.json: which chunks each page needs, read by scripts/check-bundle.mjs.
    manifest: true,
    rolldownOptions: {
      output: {
        // React and the router are needed by every page and change far less often than the app: one chunk that stays
        // cached across deploys. What the entry needs before it runs ($initial: the query client, Mantine's provider
        // and the components of the public frame and the sign-in page) is one chunk: left to the automatic split it
        // was 14 small chunks shared with lazy pages, each with its own import/export glue and compressed alone
        // (~5 kB more gzip). The rest (Mantine included) is split by the pages that use it, so the sign-in page does
        // not download the tables and forms of the signed-in app.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/, priority: 2 },
            { name: 'initial', tags: ['$initial'], priority: 1 },
          ],
        },
      },
    },
  },
}));
