import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { pureSharedSchemas } from './vite-plugins/pure-shared-schemas.js';

const api = 'http://localhost:3000';

export default defineConfig({
  plugins: [pureSharedSchemas(), react()],
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
        // cached across deploys. The rest (Mantine included) is split by the pages that use it, so the sign-in page
        // does not download the tables and forms of the signed-in app.
        codeSplitting: {
          groups: [{ name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ }],
        },
      },
    },
  },
});
