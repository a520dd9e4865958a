import { defineConfig } from 'vitest/config';

// Browser tests: one file at a time, each against its own server and database.
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['tests/**/*.e2e.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    // expect.poll waits on what the page shows; a busy machine may take seconds, not the default one.
    expect: { poll: { timeout: 30_000, interval: 100 } },
  },
});
