import { defineConfig } from 'vitest/config';

// Browser tests: one file at a time, against one server the global setup starts
// for all of them (each flow with users of its own); a file that needs other
// settings starts its own (startAppServer).
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['tests/**/*.e2e.ts'],
    globalSetup: ['./global-setup.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    // expect.poll waits on what the page shows; a busy machine may take seconds, not the default one.
    expect: { poll: { timeout: 30_000, interval: 100 } },
  },
});
