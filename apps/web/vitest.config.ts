import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'web',
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    // Screens render the whole antd tree in jsdom: on a busy 2-core machine one test can take a minute
    // or more. Tests wait on conditions; these limits only stop a hung test.
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
