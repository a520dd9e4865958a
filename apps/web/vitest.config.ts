import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'web',
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    // Screens render the whole antd tree in jsdom: on a busy 2-core machine one test can take tens of seconds.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
