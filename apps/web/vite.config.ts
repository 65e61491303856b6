// Builds the single-page app into dist/ (served by the API server) and proxies the API in dev.
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

// The API server the dev and preview servers forward to.
const api = process.env.LOUPE_API_URL ?? 'http://localhost:8080';

const proxy = {
  '/api': { target: api, changeOrigin: false },
  '/sdk': { target: api, changeOrigin: false },
};

export default defineConfig({
  plugins: [react()],
  // Resolve @loupe/contracts to its TypeScript sources, so the web app never waits for a build.
  resolve: { conditions: ['loupe-src', ...defaultClientConditions] },
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 2500 },
  server: { proxy },
  preview: { proxy },
});
