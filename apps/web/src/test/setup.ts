import './jsdom-polyfills';
import NProgress from 'nprogress';
import { afterAll, vi } from 'vitest';
import { installConsoleHarness } from './harness';

// One API stub, session, language, query cache and clean-up for every test file.
installConsoleHarness();

// The loading bar finishes on its own timers (NProgress.done removes the bar a moment later): a file whose last page
// left it running would have them fire after the page is gone (`document is not defined`). It is finished and
// awaited until the bar is removed before the file ends.
afterAll(async () => {
  if (NProgress.status === null && !document.getElementById('nprogress')) return;
  NProgress.done();
  await vi.waitFor(
    () => {
      if (NProgress.status !== null || document.getElementById('nprogress')) throw new Error('the loading bar runs');
    },
    { timeout: 5000, interval: 50 },
  );
});
