import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { buildOpenApi } from '@proxy/contract';
import { AppProviders } from '../../../app/providers';
import { apiHttp } from '../../../lib/api-client';
import { setLanguage } from '../../../lib/i18n';
import { clearShownMessages, getShownMessages } from '../../../lib/message';
import { queryClient } from '../../../lib/query-client';
import { clearToken, saveSession } from '../../../lib/session';
import { ok, startTestApiServer } from '../../../test/api-server';
import ApiDocsPage from './api-docs-page';

// Generous: antd pages render slowly in jsdom, more so on a busy machine.
configure({ asyncUtilTimeout: 15_000 });

const KEY = 'pk_abcdefghijklmnopqrstuvwxyz123456';
const NEW_KEY = 'pk_zyxwvutsrqponmlkjihgfedcba654321';
const user = {
  user_id: 42,
  name: 'alice',
  balance: 15,
  frozen_balance: 0,
  status: 'active',
  total_balance: 15,
  email: 'alice@example.com',
  token: KEY,
  avatar: '',
  invite_code: 'INVITE42',
  trial_credit: 15,
  is_admin: false,
  created_at: '2026-01-02T03:04:05.000Z',
};
const dynamicToken = { token_id: 31, area: { country: 'de' } };

const api = await startTestApiServer();
const previousBase = apiHttp.defaults.baseURL;
apiHttp.defaults.baseURL = api.apiUrl;

function renderPage() {
  return render(
    <AppProviders>
      <ApiDocsPage />
    </AppProviders>,
  );
}

beforeEach(() => {
  act(() => setLanguage('en'));
  saveSession('test-session', { remember: false });
  queryClient.clear();
  clearShownMessages();
  api.requests.length = 0;
  let currentKey = KEY;
  api.on('GET /api/user/info', () => ok({ ...user, token: currentKey }));
  api.on('POST /api/user/api-key/reset', () => {
    currentKey = NEW_KEY;
    return ok({ token: NEW_KEY });
  });
  // The real document of the route table, served as the server does (raw JSON, no envelope).
  api.on('GET /api/openapi.json', () => ({ raw: JSON.stringify(buildOpenApi()), headers: { 'content-type': 'application/json; charset=utf-8' } }));
  api.on('GET /api/token/list/isp/dynamic', () => ok({ records: [dynamicToken], total: 1, page: 1, page_size: 1 }));
  api.on('GET /api/token/list/isp/static', () => ok({ records: [], total: 0, page: 1, page_size: 1 }));
  api.on('GET /api/token/list/idc/static', () => ok({ records: [], total: 0, page: 1, page_size: 1 }));
  api.on('GET /api/token/list/area/countries', () => ok([{ id: 'de', name: 'Germany', name_zh: '德国', name_en: 'Germany', available: 2 }]));
});
afterEach(() => cleanup());
afterAll(async () => {
  clearToken();
  apiHttp.defaults.baseURL = previousBase;
  await api.close();
});

describe('API docs page', { timeout: 90_000 }, () => {
  it('current token: masked, revealed, with the keep-it-secret warning', async () => {
    renderPage();
    await waitFor(() => expect(screen.getByTestId('api-key').textContent).toMatch(/^pk_a\*+3456$/));
    expect(screen.getByText('Keep your API key secret')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Show/ }));
    expect(screen.getByTestId('api-key').textContent).toBe(KEY);
    expect(screen.getByText(`${window.location.origin}/api/v1`)).toBeTruthy();
  });

  it('resets the key after confirmation and shows the new one', async () => {
    renderPage();
    await waitFor(() => expect(screen.getByTestId('api-key').textContent).toMatch(/^pk_a/));
    fireEvent.click(screen.getByRole('button', { name: /Reset key/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/the current one stops working at once/)).toBeTruthy();
    expect(api.requests.some((r) => r.path === '/api/user/api-key/reset')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.getByTestId('api-key').textContent).toMatch(/^pk_z\*+4321$/));
    expect(api.requests.filter((r) => r.path === '/api/user/api-key/reset')).toHaveLength(1);
    expect(getShownMessages().map((m) => m.text)).toContain('A new API key was created');
  });

  it('proxy API tab: calls from the OpenAPI document with parameters, answers and working curl commands with the key', async () => {
    renderPage();
    await waitFor(() => expect(screen.getByTestId('api-key').textContent).toMatch(/^pk_a/));
    fireEvent.click(screen.getByRole('tab', { name: /Proxy API/ }));
    const endpoints = await screen.findByTestId('operation-v1Endpoints');
    expect(within(endpoints).getByText('/api/v1/endpoints')).toBeTruthy();
    expect(within(endpoints).getByText('GET')).toBeTruthy();
    for (const name of ['proxyId', 'countryId', 'stateId', 'cityId', 'networkType', 'limit']) expect(within(endpoints).getByText(name)).toBeTruthy();
    expect(screen.getByTestId('operation-v1Proxies')).toBeTruthy();
    expect(screen.queryByTestId('operation-v1AreaCountries')).toBeNull();
    // The shown command hides the key until it is revealed; it uses the user's proxy and the page's origin.
    const origin = window.location.origin;
    await waitFor(() =>
      expect(within(endpoints).getByLabelText('Example request').textContent).toMatch(
        new RegExp(`^curl -H "X-API-Key: pk_a\\*+3456" "${origin.replace(/[.]/g, '\\.')}/api/v1/endpoints\\?proxyId=31&limit=10&format=text"$`),
      ),
    );
    fireEvent.click(screen.getByRole('tab', { name: /Current token/ }));
    fireEvent.click(screen.getByRole('button', { name: /Show/ }));
    fireEvent.click(screen.getByRole('tab', { name: /Proxy API/ }));
    expect(within(screen.getByTestId('operation-v1Endpoints')).getByLabelText('Example request').textContent).toBe(
      `curl -H "X-API-Key: ${KEY}" "${origin}/api/v1/endpoints?proxyId=31&limit=10&format=text"`,
    );
    expect(within(endpoints).getByLabelText('Example answer (json)').textContent).toContain('"endpoints"');
  });

  it('area API tab: the three area calls, with a real country in the examples', async () => {
    renderPage();
    await waitFor(() => expect(screen.getByTestId('api-key').textContent).toMatch(/^pk_a/));
    fireEvent.click(screen.getByRole('tab', { name: /Area API/ }));
    const states = await screen.findByTestId('operation-v1AreaStates');
    expect(screen.getByTestId('operation-v1AreaCountries')).toBeTruthy();
    expect(screen.getByTestId('operation-v1AreaCities')).toBeTruthy();
    expect(screen.queryByTestId('operation-v1Endpoints')).toBeNull();
    await waitFor(() => expect(within(states).getByLabelText('Example request').textContent).toContain('/api/v1/areas/states?countryId=de"'));
  });

  it('says when the description cannot be loaded', async () => {
    api.on('GET /api/openapi.json', () => ({ status: 500, json: { code: 500, msg: 'boom', data: null } }));
    renderPage();
    fireEvent.click(screen.getByRole('tab', { name: /Proxy API/ }));
    expect(await screen.findByText('The API description could not be loaded')).toBeTruthy();
  });

  it('is translated into Chinese', async () => {
    act(() => setLanguage('zh'));
    renderPage();
    expect(await screen.findByRole('tab', { name: /当前令牌/ })).toBeTruthy();
    expect(screen.getByRole('tab', { name: /代理 API/ })).toBeTruthy();
    expect(screen.getByRole('tab', { name: /地区 API/ })).toBeTruthy();
    expect(await screen.findByText('请妥善保管您的 API 密钥')).toBeTruthy();
  });
});
