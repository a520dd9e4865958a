import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompressPlugin } from './precompress';

export default defineConfig({
  // Brotli and gzip copies of each asset are made once here; the server sends them per Accept-Encoding.
  plugins: [react(), precompressPlugin()],
  server: {
    host: '127.0.0.1',
    port: 5173,
    proxy: {
      '/api': { target: 'http://127.0.0.1:8080', changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    // No manual chunks: the bundler splits every library along the routes' imports, so a page
    // downloads the antd components it uses and ECharts stays with the charts (dashboard,
    // operator overview, IP quality), all loaded lazily.
  },
});
