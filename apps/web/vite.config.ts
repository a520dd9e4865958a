import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompressPlugin } from './precompress';

// Vendor groups keep the big libraries in their own long-cached chunks; ECharts
// is only reached from lazily loaded screens, so the login page never downloads it.
const VENDOR_GROUPS: { name: string; test: RegExp; priority: number }[] = [
  { name: 'echarts', test: /[\\/]node_modules[\\/](echarts|zrender|echarts-for-react)[\\/]/, priority: 30 },
  { name: 'antd', test: /[\\/]node_modules[\\/](antd|@ant-design|@rc-component|rc-[\w-]+|@emotion|stylis)[\\/]/, priority: 20 },
  {
    name: 'react',
    test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack|i18next|react-i18next|axios|dayjs)[\\/]/,
    priority: 10,
  },
];

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
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: VENDOR_GROUPS,
        },
      },
    },
  },
});
