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
    // Flows wait on what the page shows; these limits only stop a hung flow.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    fileParallelism: false,
    // expect.poll waits on what the page shows; a busy machine may take seconds, not the default one.
    expect: { poll: { timeout: 60_000, interval: 100 } },
  },
});
