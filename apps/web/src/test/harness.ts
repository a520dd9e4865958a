import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { act, cleanup, configure, screen } from '@testing-library/react';
import { message as staticMessage, Modal as StaticModal } from 'antd';
import type { TLang } from '@proxy/contract';
import { apiHttp } from '../lib/api-client';
import { setLanguage } from '../lib/i18n';
import { clearShownMessages, getShownMessages, type TShownMessage } from '../lib/message';
import { registerNavigator, setHardNavigate } from '../lib/navigation';
import { queryClient } from '../lib/query-client';
import { clearToken, saveSession } from '../lib/session';
import { clearTabs } from '../lib/tabs';
import { markUserGuideCompleted } from '../lib/user-guide';
import { createApiStub } from './api-stub';

/**
 * The console's test harness, installed once by setup.ts for every test file:
 * one local API stub per file, and before each test a clean slate (stubs,
 * storage, tabs, query cache, toasts), English, and a signed-in session.
 */

/** The API stub of this test file; its answers and requests are reset before each test. */
export const api = createApiStub();

/** Token of the session every test starts with (call clearToken() to start signed out). */
export const TEST_SESSION_TOKEN = 'test-session';

/** Full page loads the console asked for in this test (jsdom cannot load pages). */
export const hardNavigations: string[] = [];

/** Language every test starts in. */
const TEST_LANGUAGE: TLang = 'en';

/** Texts of the toasts shown in this test, of one type or all. */
export function shownMessages(type?: TShownMessage['type']): string[] {
  return getShownMessages()
    .filter((shown) => type === undefined || shown.type === type)
    .map((shown) => shown.text);
}

/** The newest antd modal holding a text (a confirm dialog may repeat its title for screen readers). */
export async function findModalWith(text: string): Promise<HTMLElement> {
  const hits = await screen.findAllByText(text);
  return hits.at(-1)!.closest('.ant-modal') as HTMLElement;
}

/** Registers the harness's hooks; setup.ts calls it once per test file. */
export function installConsoleHarness(): void {
  // antd renders slowly in jsdom, more so on a busy machine: a condition is waited for up to a minute.
  configure({ asyncUtilTimeout: 60_000 });

  beforeAll(async () => {
    await api.listen();
    apiHttp.defaults.baseURL = api.url;
    setHardNavigate((url) => hardNavigations.push(url));
  });

  beforeEach(() => {
    api.reset();
    hardNavigations.length = 0;
    localStorage.clear();
    sessionStorage.clear();
    clearTabs();
    queryClient.clear();
    clearShownMessages();
    setLanguage(TEST_LANGUAGE);
    saveSession(TEST_SESSION_TOKEN, { remember: false });
    // The guided tour would open over every screen rendered in the layout: its own tests clear this.
    markUserGuideCompleted();
  });

  // Without vitest globals, Testing Library does not unmount by itself.
  afterEach(() => {
    cleanup();
    registerNavigator(null);
    if (api.problems.length > 0) throw new Error(api.problems.join('\n'));
  });

  afterAll(async () => {
    // antd's static toasts and dialogs (used outside a rendered app) live in React roots of their
    // own: close them inside act so React's last work is done before the file's jsdom goes away.
    await act(async () => {
      staticMessage.destroy();
      StaticModal.destroyAll();
    });
    clearToken();
    queryClient.clear();
    await api.close();
  });
}
