import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompressPlugin } from './precompress';
import { KB, routeBudgetsPlugin } from './route-budgets';

export default defineConfig({
  // Brotli and gzip copies of each asset are made once here; the server sends them per Accept-Encoding.
  plugins: [
    react(),
    // Fails the build when a route's cold load downloads more gzipped JavaScript than its budget.
    routeBudgetsPlugin({
      routesModule: 'src/app/feature-routes.ts',
      shellRoutesModule: 'src/app/route-list.ts',
      layouts: { protected: 'src/app/app-layout.tsx', admin: 'src/app/admin-layout.tsx' },
      // The features' texts the router loads before the first screen: counted in Chinese, the larger;
      // a public page loads only the public screens' texts.
      alsoLoads: {
        public: ['src/lib/feature-locales-public-zh.ts'],
        protected: ['src/lib/feature-locales-zh.ts'],
        admin: ['src/lib/feature-locales-zh.ts'],
      },
      // antd's theme, locale and message APIs: around every screen but the light ones (the sign-in pages).
      unlessLight: ['src/app/antd-providers.tsx'],
      // Today's ceilings, about 5 KB above the figures of the build, so a heavier page fails it.
      // The goals are lower (sign-in and public pages 200 KB, the dashboard 450 KB with its
      // charts; the dashboard is under it). The request layer is XMLHttpRequest (no axios) and reads
      // the schema-free route table; the public forms load zod with their first check; the
      // dashboard draws its charts and tables without ECharts and antd's Table; the sign-in pages' frame
      // uses neither antd's Card (its Tabs) nor the language dropdown menu. Still on /login:
      // React and react-dom, react-router, i18next, antd's core, Form and message/modal APIs.
      // The webhooks, usage log, target rules and renewal screens' texts (one chunk per language for every
      // signed-in page) added about 8 KB to each signed-in route.
      budgets: { byPath: { '/': 433 * KB, '/login': 347 * KB }, byAccess: { public: 359 * KB }, default: 710 * KB },
    }),
    precompressPlugin(),
  ],
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
