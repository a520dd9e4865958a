import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TProxyToken, TRouteOutput } from '@proxy/contract';
import { fail, type TStubRequest } from '../../../test/api-stub';
import { makeSiteSettings, makeToken, makeUser, pageOf } from '../../../test/fixtures';
import { api } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { setLanguage } from '../../../lib/i18n';
import DashboardPage from './dashboard-page';

const GB = 1024 ** 3;
const CALIFORNIA = {
  country: 'us',
  state: 'ca',
  city: '',
  country_name: 'United States',
  state_name: 'California',
  city_name: '',
};

function token(id: number, username: string, expiresAt: string, autoRenew: boolean): TProxyToken {
  return makeToken({
    token_id: id,
    username,
    remark: `remark ${id}`,
    area: CALIFORNIA,
    expires_at: expiresAt,
    auto_renew: autoRenew,
    host: 'gw.example.com',
    password: 'pw',
    proxy_url: '',
  });
}

const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
const SOON = token(1, 'usoon1', inHours(5), false);
const LATER = token(2, 'ulater2', inHours(50), true);

/** A list answer: the expiring query gets its tokens, the count query its total. */
function listAnswer(total: number, expiring: TProxyToken[]) {
  return (req: TStubRequest) =>
    req.query.has('expires_to') ? pageOf(expiring, 50) : { records: [], total, page: 1, page_size: 1 };
}

function spendAnswer(req: TStubRequest): TRouteOutput<'userStatisticsAmount'> {
  const days = Number(req.query.get('days'));
  const points = Array.from({ length: days }, (_, i) => ({
    date: `2026-01-${String(i + 1).padStart(2, '0')}`,
    spend: i === 1 ? 2 : 0,
    recharge: i === 2 ? 100 : 0,
  }));
  return { points, total_spend: 2, total_recharge: 100 };
}

function renderPage() {
  return renderAt('/', <DashboardPage />);
}

type TSeriesOption = { name: string; type: string; data: number[] };

/** What a drawn chart shows: its series (name, bar or line, the value of each mark), day labels and value-axis steps. */
function drawn(element: HTMLElement) {
  const series: TSeriesOption[] = [...element.querySelectorAll<SVGGElement>('g[data-series]')].map((g) => ({
    name: g.dataset.series!,
    type: g.dataset.type!,
    data: [...g.querySelectorAll('[data-value]')].map((mark) => Number(mark.getAttribute('data-value'))),
  }));
  const xAxis = [...element.querySelectorAll('g[data-axis="x"] text')].map((text) => text.textContent);
  const yTicks = [...element.querySelectorAll('g[data-axis="y"] text')].map((text) =>
    Number(text.getAttribute('data-value')),
  );
  return { series, xAxis, yTicks };
}

/** The chart inside a card, once its series are drawn. */
async function chartIn(cardTitle: string) {
  const card = (await screen.findByText(cardTitle)).closest('.ant-card') as HTMLElement;
  const element = await within(card).findByTestId('trend-chart');
  await waitFor(() => expect(drawn(element).series.length).toBeGreaterThan(0));
  return { card, chart: { read: () => drawn(element) } };
}

// 4 dynamic, 2 static (both expiring soon) and 7 data-center proxies; 30 days of spend; 3 days of traffic.
beforeEach(() => {
  api.on('userInfo', () => makeUser({ user_id: 42, balance: 13 }));
  api.on('tokenListIspDynamic', listAnswer(4, []));
  api.on('tokenListIspStatic', listAnswer(2, [LATER, SOON]));
  api.on('tokenListIdcStatic', listAnswer(7, []));
  api.on('userStatisticsAmount', spendAnswer);
  api.on('tokenSessionTraffic', () => ({
    granularity: 'day' as const,
    from: '2026-01-01T00:00:00.000Z',
    to: '2026-01-03T12:00:00.000Z',
    points: [
      { at: '2026-01-01T00:00:00.000Z', bytes: 0, uncharged_bytes: 0 },
      { at: '2026-01-02T00:00:00.000Z', bytes: 1.5 * GB, uncharged_bytes: 0 },
      { at: '2026-01-03T00:00:00.000Z', bytes: 0.25 * GB, uncharged_bytes: 0 },
    ],
    total_bytes: 1.75 * GB,
    total_uncharged_bytes: 0,
  }));
});

describe('statistics dashboard', () => {
  it('shows the marketing figures the operator set in the product overview (zh)', async () => {
    setLanguage('zh');
    api.on('siteSettings', () =>
      makeSiteSettings({ claims: { residential_ips: '800K+', countries: 7, uptime: '99.0%' } }),
    );
    renderPage();
    const figure = async (title: string) =>
      (await screen.findByText(title)).closest('.ant-statistic')!.querySelector('.ant-statistic-content')!.textContent;
    await waitFor(async () => expect(await figure('住宅 IP')).toBe('800K+'));
    expect(await figure('覆盖国家和地区')).toBe('7');
    expect(await figure('可用率')).toBe('99.0%');
  });

  it('shows the available balance with a "Top up" link to /charge', async () => {
    const { router } = renderPage();
    const card = (await screen.findByText('Available balance')).closest('.ant-card') as HTMLElement;
    await waitFor(() => expect(within(card).getByText('¥13.00')).toBeTruthy());
    const link = within(card).getByTestId('top-up-link');
    expect(link.textContent).toBe('Top up');
    expect(link.getAttribute('href')).toBe('/charge');
    fireEvent.click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe('/charge'));
  });

  it('counts active proxies by kind from the list totals', async () => {
    renderPage();
    await waitFor(() => expect(screen.getByTestId('active-dynamic').textContent).toContain('4'));
    expect(screen.getByTestId('active-static').textContent).toContain('2');
    expect(screen.getByTestId('active-idc').textContent).toContain('7');
    const counts = api.requests.filter((r) => r.path.startsWith('/token/list/') && !r.query.has('expires_to'));
    expect(counts).toHaveLength(3);
    for (const r of counts) expect([r.query.get('page_size'), r.query.get('status')]).toEqual(['1', 'enabled']);
  });

  it('draws spend and recharge per day from /user/statistics/amount and switches the period', async () => {
    renderPage();
    const { card, chart } = await chartIn('Spend over time');
    await waitFor(() => expect(chart.read().series[0].data).toHaveLength(30));
    const [spend, recharge] = chart.read().series;
    expect([spend.name, spend.type, recharge.name, recharge.type]).toEqual(['Spend', 'bar', 'Recharge', 'line']);
    expect(spend.data.slice(0, 3)).toEqual([0, 2, 0]);
    expect(recharge.data.slice(0, 3)).toEqual([0, 0, 100]);
    expect(chart.read().xAxis[0]).toBe('01-01');
    expect(within(card).getByText('¥2.00')).toBeTruthy();
    const [request] = api.requestsTo('userStatisticsAmount');
    expect(request.query.get('tz_offset_minutes')).toBe(String(-new Date().getTimezoneOffset() || 0));
    fireEvent.click(within(card).getByText('7 days'));
    await waitFor(() => expect(chart.read().series[0].data).toHaveLength(7));
    expect(api.requestsTo('userStatisticsAmount').some((r) => r.query.get('days') === '7')).toBe(true);
  });

  it('draws traffic per day from /token/session/traffic in a readable unit', async () => {
    renderPage();
    const { card, chart } = await chartIn('Traffic over time');
    await waitFor(() => expect(chart.read().series[0].data).toEqual([0, 1.5, 0.25]));
    expect(within(card).getByText('1.75 GB')).toBeTruthy();
    const [request] = api.requestsTo('tokenSessionTraffic');
    expect(request.query.get('granularity')).toBe('day');
    const from = Date.parse(request.query.get('from')!);
    const to = Date.parse(request.query.get('to')!);
    expect(to - from).toBeGreaterThan(6 * 24 * 3_600_000);
    expect(to - from).toBeLessThanOrEqual(7 * 24 * 3_600_000);
  });

  it('says how many bytes were not charged beside the charged total', async () => {
    api.on('tokenSessionTraffic', () => ({
      granularity: 'day' as const,
      from: '2026-01-01T00:00:00.000Z',
      to: '2026-01-02T12:00:00.000Z',
      points: [
        { at: '2026-01-01T00:00:00.000Z', bytes: GB, uncharged_bytes: 0 },
        { at: '2026-01-02T00:00:00.000Z', bytes: GB, uncharged_bytes: 3 * 1024 ** 2 },
      ],
      total_bytes: 2 * GB,
      total_uncharged_bytes: 3 * 1024 ** 2,
    }));
    renderPage();
    const { card, chart } = await chartIn('Traffic over time');
    await waitFor(() => expect(chart.read().series[0].data).toEqual([1, 1]));
    expect(within(card).getByText('2.00 GB')).toBeTruthy();
    expect(within(card).getByTestId('traffic-not-charged').textContent).toBe(
      'Not charged: 3.00 MB (lost before the target answered)',
    );
  });

  it('has no "not charged" line when every byte was charged', async () => {
    renderPage();
    const { card, chart } = await chartIn('Traffic over time');
    await waitFor(() => expect(chart.read().series[0].data).toEqual([0, 1.5, 0.25]));
    expect(within(card).queryByTestId('traffic-not-charged')).toBeNull();
  });

  it('steps the axis by whole bytes when the traffic is under 1 KB', async () => {
    api.on('tokenSessionTraffic', () => ({
      granularity: 'day' as const,
      from: '2026-01-01T00:00:00.000Z',
      to: '2026-01-02T12:00:00.000Z',
      points: [
        { at: '2026-01-01T00:00:00.000Z', bytes: 0, uncharged_bytes: 0 },
        { at: '2026-01-02T00:00:00.000Z', bytes: 3, uncharged_bytes: 0 },
      ],
      total_bytes: 3,
      total_uncharged_bytes: 0,
    }));
    renderPage();
    const { chart } = await chartIn('Traffic over time');
    await waitFor(() => expect(chart.read().series[0].data).toEqual([0, 3]));
    expect(chart.read().yTicks).toEqual([0, 1, 2, 3]);
  });

  it('shows a friendly empty state instead of a flat chart when there is no traffic', async () => {
    api.on('tokenSessionTraffic', () => ({
      granularity: 'day' as const,
      from: '2026-01-01T00:00:00.000Z',
      to: '2026-01-02T12:00:00.000Z',
      points: [
        { at: '2026-01-01T00:00:00.000Z', bytes: 0, uncharged_bytes: 0 },
        { at: '2026-01-02T00:00:00.000Z', bytes: 0, uncharged_bytes: 0 },
      ],
      total_bytes: 0,
      total_uncharged_bytes: 0,
    }));
    renderPage();
    const card = (await screen.findByText('Traffic over time')).closest('.ant-card') as HTMLElement;
    expect(
      await within(card).findByText(
        'No traffic in the last 7 days yet. It shows here once your proxies carry traffic.',
      ),
    ).toBeTruthy();
    expect(within(card).queryByTestId('trend-chart')).toBeNull();
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
    expect([...new Set(expiring.map((r) => r.route))].sort()).toEqual([
      'tokenListIdcStatic',
      'tokenListIspDynamic',
      'tokenListIspStatic',
    ]);
    const span = Date.parse(expiring[0].query.get('expires_to')!) - Date.parse(expiring[0].query.get('expires_from')!);
    expect(span).toBe(3 * 24 * 3_600_000);
  });

  it('says which statistics failed to load', async () => {
    api.on('tokenSessionTraffic', () => fail(500, 500, 'boom'));
    renderPage();
    expect(await screen.findByText('Failed to fetch the traffic statistics')).toBeTruthy();
    // The rest of the page still works.
    await waitFor(() => expect(screen.getByTestId('active-idc').textContent).toContain('7'));
  });
});
