import { afterAll, afterEach, beforeEach } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { DEFAULT_PRICE_CATALOGUE, type TPriceCatalogue } from '@proxy/contract';
import { apiHttp } from '../../../lib/api-client';
import { setLanguage } from '../../../lib/i18n';
import { clearShownMessages, getShownMessages } from '../../../lib/message';
import { queryClient } from '../../../lib/query-client';
import { clearToken, saveSession } from '../../../lib/session';
import { ProxyScreen } from '../components/proxy-screen';
import { ok, startTestApiServer, type TReply } from '../../../test/api-server';
import { makeToken, makeUser } from './fixtures';
import { renderScreen } from './render';

/** Prices that differ from the defaults, so a preview computed without the server's catalogue would show. */
export const CATALOGUE: TPriceCatalogue = {
  ...DEFAULT_PRICE_CATALOGUE,
  static_ip_day_fen: 250,
  static_ip_month_fen: 6600,
  residential_traffic_tier0_fen: 4100,
};

/** The static list's rows: an IP proxy (1) and a traffic proxy (2). */
export const TOKENS = [makeToken({ token_id: 1 }), makeToken({ token_id: 2, type: 'traffic', usage: { used_bytes: 0, limit_bytes: 1024 ** 3 } })];

/** A failure envelope with a real HTTP status. */
export const fail = (status: number, code: number, msg: string): TReply => ({ status, json: { code, msg, data: null } });

/**
 * Starts a local API for one test file, points the console's request layer at
 * it, signs in and answers the calls every proxy screen makes; resets the
 * answers, messages and caches before each test.
 */
export async function setUpScreenTests() {
  const api = await startTestApiServer();
  const previousBase = apiHttp.defaults.baseURL;
  apiHttp.defaults.baseURL = api.apiUrl;

  const answerDefaults = (balance = 15) => {
    api.on('GET /api/user/info', () => ok(makeUser(balance)));
    api.on('GET /api/user/notification/list', () => ok({ records: [], total: 0, page: 1, page_size: 1, unread: 0 }));
    api.on('GET /api/token/prices', () => ok(CATALOGUE));
    api.on('GET /api/token/list/area/countries', () => ok([{ id: 'us', name: 'United States', name_zh: '美国', name_en: 'United States', available: 3 }]));
    api.on('GET /api/token/list/area/state', () => ok([]));
    api.on('GET /api/token/list/isp/static', () => ok({ records: TOKENS, total: TOKENS.length, page: 1, page_size: 10 }));
    api.on('GET /api/token/payway/list', () => ok([{ id: 'balance', name: 'Balance', name_zh: '余额支付', name_en: 'Balance', balance }]));
  };

  beforeEach(() => {
    act(() => setLanguage('en'));
    saveSession('test-session', { remember: false });
    queryClient.clear();
    clearShownMessages();
    api.requests.length = 0;
    answerDefaults();
  });
  afterEach(() => cleanup());
  afterAll(async () => {
    clearToken();
    apiHttp.defaults.baseURL = previousBase;
    await api.close();
  });

  return {
    api,
    answerDefaults,
    /** Requests of one method to one path (without /api). */
    requestsTo: (method: string, path: string) => api.requests.filter((r) => r.method === method && r.path === `/api${path}`),
  };
}

/** Renders the static residential screen. */
export function renderStatic() {
  return renderScreen('/proxy/isp/static', <ProxyScreen screenKey="static" />);
}

/** Texts of the toasts of one type shown so far. */
export function messages(type: string): string[] {
  return getShownMessages()
    .filter((m) => m.type === type)
    .map((m) => m.text);
}

/** Ticks the row checkboxes of the given token ids. */
export async function selectRows(...ids: number[]) {
  await screen.findByText('user1');
  const rows = document.querySelectorAll<HTMLTableRowElement>('.ant-table-tbody tr[data-row-key]');
  for (const row of rows) {
    if (ids.includes(Number(row.dataset.rowKey))) fireEvent.click(row.querySelector('input[type=checkbox]')!);
  }
}

/** The newest antd modal holding a text (a confirm dialog may repeat its title for screen readers). */
export async function findModalWith(text: string): Promise<HTMLElement> {
  const hits = await screen.findAllByText(text);
  return hits.at(-1)!.closest('.ant-modal') as HTMLElement;
}

/** Opens a row's "More" menu and clicks an item. */
export async function clickRowMenu(username: string, item: string) {
  fireEvent.click(await screen.findByLabelText(`More actions for ${username}`));
  const menu = await waitFor(() => {
    const open = document.querySelector('.ant-dropdown:not(.ant-dropdown-hidden)') as HTMLElement | null;
    if (!open) throw new Error('menu not open');
    return open;
  });
  fireEvent.click(within(menu).getByText(item));
}
