import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium, never a downloaded browser. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Launches headless Chromium with the flags this machine needs. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Storage key and record of the guided tour's "completed" flag (userGuideCompleted, see the console's lib/user-guide.ts). */
export const TOUR_COMPLETED_KEY = 'PROXYHUB_USER_GUIDE_COMPLETED';

/**
 * A fresh context (own storage) with a language and colour scheme. The guided
 * tour would stand in front of every flow: its flag is set on every page of
 * the context unless `withTour` (the tour's own tests).
 */
export async function newPage(
  browser: Browser,
  options: { locale?: string; colorScheme?: 'light' | 'dark'; withTour?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    locale: options.locale ?? 'en-US',
    colorScheme: options.colorScheme ?? 'light',
    viewport: { width: 1400, height: 900 },
    reducedMotion: 'reduce',
  });
  // Clicks and waits on a busy machine may take longer than Playwright's 30 s default: a limit against hangs only.
  context.setDefaultTimeout(90_000);
  if (!options.withTour) {
    await context.addInitScript((key: string) => {
      if (!window.localStorage.getItem(key))
        window.localStorage.setItem(key, JSON.stringify({ value: true, time: Date.now(), expire: null }));
    }, TOUR_COMPLETED_KEY);
  }
  const page = await context.newPage();
  return { context, page };
}
