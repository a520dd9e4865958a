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
      // The sign-in pages (login, register, reset, OAuth callback, two-factor step) and /404 are
      // built without antd (`isLight`), so they load neither antd nor its providers: about 190 KB
      // (goal 200 KB). Still on them: React DOM, the router, React Query, i18next, the request layer
      // with its route table. The invite link page and the renewal cancel page still use antd.
      // The dashboard (goal 450 KB with its charts) draws its charts and tables without ECharts and
      // antd's Table. The webhooks, usage log, target rules and renewal screens' texts (one chunk
      // per language for every signed-in page) added about 8 KB to each signed-in route; the upstream pools'
      // schemas in the contract and the pools screen's texts about 5 KB more (/tools/ip-quality, the largest, 717 KB);
      // the economics' schemas, error and field messages and its screen's texts about 2 to 4 KB more (/ 434.1 KB,
      // /tools/ip-quality 720.6 KB). The software releases' routes, error and field messages (in the light contract
      // every page loads) and the operator screen's texts about 1.5 KB more on each page (/login 196.3 KB, / 436.9 KB)
      // and 3.5 KB on /tools/ip-quality (725.8 KB). Usage by target domain: the dashboard's top domains card (a
      // plain table, no antd Table) and its routes in the contract, about 4 KB on / (441.5 KB) and 1 KB elsewhere
      // (/tools/ip-quality 728.1 KB); the session hold report's schemas and texts and the traffic card's "not
      // charged" line about 0.6 KB on / (442.1 KB) and 1.6 KB on /tools/ip-quality (729.7 KB). The marketing figures
      // read from the server (the settings' schemas, field messages, the operator card's texts) and the pools' exit
      // IP header and session idle limit about 1 to 2 KB more (/ 443.3 KB, /login 197.1 KB, /tools/ip-quality 731.8 KB).
      budgets: {
        byPath: { '/': 444 * KB, '/login': 198 * KB, '/invite/:invite_code': 356 * KB, '/renewal/cancel': 337 * KB },
        byAccess: { public: 199 * KB },
        default: 732 * KB,
      },
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
