import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { AppProviders } from '../../../app/providers';
import { apiHttp } from '../../../lib/api-client';
import { setLanguage } from '../../../lib/i18n';
import { clearShownMessages, getShownMessages } from '../../../lib/message';
import { queryClient } from '../../../lib/query-client';
import { clearToken, saveSession } from '../../../lib/session';
import { ok, startTestApiServer } from '../../../test/api-server';
import SecurityPage from './security-page';

configure({ asyncUtilTimeout: 5000 });

const api = await startTestApiServer();
const previousBase = apiHttp.defaults.baseURL;
apiHttp.defaults.baseURL = api.apiUrl;

type TEntry = { id: number; ip: string; kind: 'single' | 'cidr' | 'range'; remark: string; created_at: string };
let whitelist: TEntry[] = [];
const page = (records: TEntry[]) => ok({ records, total: records.length, page: 1, page_size: 10 });

beforeEach(() => {
  act(() => setLanguage('en'));
  saveSession('test-session', { remember: false });
  queryClient.clear();
  clearShownMessages();
  api.requests.length = 0;
  whitelist = [
    { id: 11, ip: '203.0.113.7', kind: 'single', remark: 'office', created_at: '2026-01-01T00:00:00Z' },
    { id: 12, ip: '198.51.100.0/24', kind: 'cidr', remark: '', created_at: '2026-01-01T00:00:00Z' },
  ];
  api.on('GET /api/user/ip/whitelist', () => page(whitelist));
  api.on('GET /api/user/ip/blacklist', () => page([]));
  api.on('DELETE /api/user/remove/ip/11', () => {
    whitelist = whitelist.filter((e) => e.id !== 11);
    return ok(null);
  });
});
afterEach(() => cleanup());
afterAll(async () => {
  clearToken();
  apiHttp.defaults.baseURL = previousBase;
  await api.close();
});

function renderPage() {
  return render(
    <AppProviders>
      <SecurityPage />
    </AppProviders>,
  );
}

describe('security page', { timeout: 60_000 }, () => {
  it('explains the lists and shows the whitelist with kinds', async () => {
    renderPage();
    expect(await screen.findByText('203.0.113.7')).toBeTruthy();
    expect(screen.getByText('CIDR block')).toBeTruthy();
    expect(screen.getByText(/only these source addresses may use your proxies/)).toBeTruthy();
    expect(screen.getByText('An address in both lists is refused.')).toBeTruthy();
    expect(screen.getByText('Changes reach the proxy gateways within 5 seconds.')).toBeTruthy();
    expect(screen.getByText('2 of 500 entries')).toBeTruthy();
  });

  it('deletes an entry after the confirm dialog', async () => {
    renderPage();
    // Role queries are slow on antd's trees in jsdom: labels and texts instead.
    fireEvent.click(await screen.findByLabelText('Delete 203.0.113.7'));
    const content = await screen.findByText('203.0.113.7 will be removed from the whitelist.');
    const dialog = content.closest('.ant-modal-confirm') as HTMLElement;
    expect(dialog).toBeTruthy();
    expect(api.requests.some((r) => r.method === 'DELETE')).toBe(false);
    fireEvent.click(within(dialog).getByText('OK'));
    await waitFor(() => expect(screen.queryByText('203.0.113.7')).toBeNull());
    expect(api.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual(['/api/user/remove/ip/11']);
    expect(getShownMessages().some((m) => m.type === 'success' && m.text === 'Entry deleted')).toBe(true);
  });

  it('says "fetch whitelist failed" when the list cannot be loaded, in both languages', async () => {
    api.on('GET /api/user/ip/whitelist', () => ({ status: 500, json: { code: 500, msg: 'Server error', data: { error: 'INTERNAL' } } }));
    renderPage();
    await waitFor(() => expect(getShownMessages().map((m) => m.text)).toContain('Failed to fetch the whitelist'));
    expect(getShownMessages().map((m) => m.text)).not.toContain('Server error');
    expect(await screen.findByText('Retry')).toBeTruthy();
    cleanup();
    queryClient.clear();
    act(() => setLanguage('zh'));
    renderPage();
    await waitFor(() => expect(getShownMessages().map((m) => m.text)).toContain('获取白名单失败'));
    fireEvent.click(screen.getAllByText('黑名单')[0]);
    expect(await screen.findByText('黑名单为空')).toBeTruthy();
  });
});
