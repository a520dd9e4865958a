import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import * as echarts from 'echarts/core';
import type { TProxyToken } from '@proxy/contract';
import { AppProviders } from '../../../app/providers';
import { apiHttp } from '../../../lib/api-client';
import { setLanguage } from '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';
import { clearToken, saveSession } from '../../../lib/session';
import { ok, startTestApiServer, type TRecordedRequest } from '../../../test/api-server';
import DashboardPage from './dashboard-page';

// Generous: antd pages render slowly in jsdom, more so on a busy machine.
configure({ asyncUtilTimeout: 15_000 });

const GB = 1024 ** 3;
const user = {
  user_id: 42,
  name: 'alice',
  balance: 13,
  frozen_balance: 0,
  status: 'active',
  total_balance: 15,
  email: 'alice@example.com',
  token: 'pk_x',
  avatar: '',
  invite_code: 'INVITE42',
  trial_credit: 15,
  is_admin: false,
  created_at: '2026-01-02T03:04:05.000Z',
};

function token(id: number, username: string, expiresAt: string, autoRenew: boolean): TProxyToken {
  return {
    token_id: id,
    remark: `remark ${id}`,
    product: 'static',
    category: 'isp',
    type: 'ip',
    network: 'HTTP',
    area: { country: 'us', state: 'ca', city: '', country_name: 'United States', state_name: 'California', city_name: '' },
    usage: { used_bytes: 0, limit_bytes: null },
    created_at: '2026-01-01T00:00:00.000Z',
    expires_at: expiresAt,
    status: 'enabled',
    auto_renew: autoRenew,
    host: 'gw.example.com',
    port: 7777,
    username,
    password: 'pw',
    proxy_url: '',
  };
}

const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
const SOON = token(1, 'usoon1', inHours(5), false);
const LATER = token(2, 'ulater2', inHours(50), true);

/** A list answer: the expiring query gets its tokens, the count query its total. */
function listAnswer(total: number, expiring: TProxyToken[]) {
  return (req: TRecordedRequest) =>
    req.query.has('expires_to') ? ok({ records: expiring, total: expiring.length, page: 1, page_size: 50 }) : ok({ records: [], total, page: 1, page_size: 1 });
}

function spendAnswer(req: TRecordedRequest) {
  const days = Number(req.query.get('days'));
  const points = Array.from({ length: days }, (_, i) => ({ date: `2026-01-${String(i + 1).padStart(2, '0')}`, spend: i === 1 ? 2 : 0, recharge: i === 2 ? 100 : 0 }));
  return ok({ points, total_spend: 2, total_recharge: 100 });
}

const api = await startTestApiServer();
const previousBase = apiHttp.defaults.baseURL;
apiHttp.defaults.baseURL = api.apiUrl;

function renderPage() {
  return render(
    <AppProviders>
      <MemoryRouter>
        <DashboardPage />
      </MemoryRouter>
    </AppProviders>,
  );
}

/** The ECharts instance inside a card, once its series have arrived. */
async function chartIn(cardTitle: string) {
  const card = (await screen.findByText(cardTitle)).closest('.ant-card') as HTMLElement;
  const element = await within(card).findByTestId('trend-chart');
  await waitFor(() => expect(echarts.getInstanceByDom(element)?.getOption()?.series).toBeTruthy());
  return { card, chart: echarts.getInstanceByDom(element)! };
}

type TSeriesOption = { name: string; type: string; data: number[] };

beforeEach(() => {
  act(() => setLanguage('en'));
  saveSession('test-session', { remember: false });
  queryClient.clear();
  api.requests.length = 0;
  api.on('GET /api/user/info', () => ok(user));
  api.on('GET /api/token/list/isp/dynamic', listAnswer(4, []));
  api.on('GET /api/token/list/isp/static', listAnswer(2, [LATER, SOON]));
  api.on('GET /api/token/list/idc/static', listAnswer(7, []));
  api.on('GET /api/user/statistics/amount', spendAnswer);
  api.on('GET /api/token/session/traffic', () =>
    ok({
      granularity: 'day',
      from: '2026-01-01T00:00:00.000Z',
      to: '2026-01-03T12:00:00.000Z',
      points: [
        { at: '2026-01-01T00:00:00.000Z', bytes: 0 },
        { at: '2026-01-02T00:00:00.000Z', bytes: 1.5 * GB },
        { at: '2026-01-03T00:00:00.000Z', bytes: 0.25 * GB },
      ],
      total_bytes: 1.75 * GB,
    }),
  );
});
afterEach(() => cleanup());
afterAll(async () => {
  clearToken();
  apiHttp.defaults.baseURL = previousBase;
  await api.close();
});

describe('statistics dashboard', { timeout: 90_000 }, () => {
  it('counts active proxies by kind from the list totals', async () => {
    renderPage();
    await waitFor(() => expect(screen.getByTestId('active-dynamic').textContent).toContain('4'));
    expect(screen.getByTestId('active-static').textContent).toContain('2');
    expect(screen.getByTestId('active-idc').textContent).toContain('7');
    const counts = api.requests.filter((r) => r.path.startsWith('/api/token/list/') && !r.query.has('expires_to'));
    expect(counts).toHaveLength(3);
    for (const r of counts) expect([r.query.get('page_size'), r.query.get('status')]).toEqual(['1', 'enabled']);
  });

  it('draws spend and recharge per day from /user/statistics/amount and switches the period', async () => {
    renderPage();
    const { card, chart } = await chartIn('Spend over time');
    await waitFor(() => expect((chart.getOption().series as TSeriesOption[])[0].data).toHaveLength(30));
    const [spend, recharge] = chart.getOption().series as TSeriesOption[];
    expect([spend.name, spend.type, recharge.name, recharge.type]).toEqual(['Spend', 'bar', 'Recharge', 'line']);
    expect(spend.data.slice(0, 3)).toEqual([0, 2, 0]);
    expect(recharge.data.slice(0, 3)).toEqual([0, 0, 100]);
    expect((chart.getOption().xAxis as { data: string[] }[])[0].data.slice(0, 2)).toEqual(['01-01', '01-02']);
    expect(within(card).getByText('¥2.00')).toBeTruthy();
    const request = api.requests.find((r) => r.path === '/api/user/statistics/amount')!;
    expect(request.query.get('tz_offset_minutes')).toBe(String(-new Date().getTimezoneOffset() || 0));
    fireEvent.click(within(card).getByText('7 days'));
    await waitFor(() => expect((chart.getOption().series as TSeriesOption[])[0].data).toHaveLength(7));
    expect(api.requests.some((r) => r.path === '/api/user/statistics/amount' && r.query.get('days') === '7')).toBe(true);
  });

  it('draws traffic per day from /token/session/traffic in a readable unit', async () => {
    renderPage();
    const { card, chart } = await chartIn('Traffic over time');
    await waitFor(() => expect((chart.getOption().series as TSeriesOption[])[0].data).toEqual([0, 1.5, 0.25]));
    expect(within(card).getByText('1.75 GB')).toBeTruthy();
    const request = api.requests.find((r) => r.path === '/api/token/session/traffic')!;
    expect(request.query.get('granularity')).toBe('day');
    const from = Date.parse(request.query.get('from')!);
    const to = Date.parse(request.query.get('to')!);
    expect(to - from).toBeGreaterThan(6 * 24 * 3_600_000);
    expect(to - from).toBeLessThanOrEqual(7 * 24 * 3_600_000);
  });

  it('lists proxies expiring within 3 days, soonest first, with auto-renew', async () => {
    renderPage();
    const title = await screen.findByText('Expiring within 3 days');
    const card = title.closest('.ant-card') as HTMLElement;
    await waitFor(() => expect(within(card).getByText('usoon1')).toBeTruthy());
    const rows = within(card).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getByText(/^u(soon|later)/).textContent)).toEqual(['usoon1', 'ulater2']);
    expect(within(rows[0]).getByText('Off')).toBeTruthy();
    expect(within(rows[0]).getByText(/\(in [45] h\)/)).toBeTruthy();
    expect(within(rows[1]).getByText('On')).toBeTruthy();
    expect(within(rows[1]).getByText(/\(in 2 d [12] h\)/)).toBeTruthy();
    const expiring = api.requests.filter((r) => r.query.has('expires_to'));
    expect([...new Set(expiring.map((r) => r.path))].sort()).toEqual(['/api/token/list/idc/static', '/api/token/list/isp/dynamic', '/api/token/list/isp/static']);
    const span = Date.parse(expiring[0].query.get('expires_to')!) - Date.parse(expiring[0].query.get('expires_from')!);
    expect(span).toBe(3 * 24 * 3_600_000);
  });

  it('says which statistics failed to load', async () => {
    api.on('GET /api/token/session/traffic', () => ({ status: 500, json: { code: 500, msg: 'boom', data: null } }));
    renderPage();
    expect(await screen.findByText('Failed to fetch the traffic statistics')).toBeTruthy();
    // The rest of the page still works.
    await waitFor(() => expect(screen.getByTestId('active-idc').textContent).toContain('7'));
  });
});
