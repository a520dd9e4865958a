import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import * as echarts from 'echarts/core';
import type { TEconomicsSummary, TOverview } from '@proxy/contract';
import { fail } from '../../../test/api-stub';
import { makeUser } from '../../../test/fixtures';
import { api } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import type { TAppRoute } from '../../../app/route-types';
import { adminOverviewRoutes } from '../routes';
import { formatBytes } from '../../../lib/format';

function overviewOf(days: number): TOverview {
  const money = Array.from({ length: days }, (_, i) => ({
    day: `2026-03-${String(i + 1).padStart(2, '0')}`,
    recharge_count: i === 0 ? 2 : 0,
    recharge_amount: i === 0 ? 150.1 : 0,
    spend_amount: i === 1 ? 20.2 : 0,
  }));
  return {
    days,
    money,
    traffic: money.map((d, i) => ({ day: d.day, bytes: i === 1 ? 3 * 1024 ** 3 : 0 })),
    active_proxies: [
      { category: 'isp', product: 'dynamic', billing: 'traffic', count: 4 },
      { category: 'idc', product: 'static', billing: 'ip', count: 9 },
    ],
    stock: [
      { country: 'jp', kind: 'residential', total: 5, free: 0 },
      { country: 'us', kind: 'datacenter', total: 3, free: 2 },
    ],
    pending_supply: 3,
    open_work_orders: 1,
    unmatched_payments: 0,
  };
}

const SUMMARY: TEconomicsSummary = {
  today: { from: '2026-03-30', to: '2026-03-30', cost_fen: 300, revenue_fen: 34, margin_fen: -266, is_negative: true },
  last_30_days: {
    from: '2026-03-01',
    to: '2026-03-30',
    cost_fen: 30_003,
    revenue_fen: 50_755,
    margin_fen: 20_752,
    is_negative: false,
  },
};

// Another operator screen, first in the menu before the overview existed (order 1).
const OTHER_SCREEN: TAppRoute = {
  path: '/admin/other',
  access: 'admin',
  titleKey: 'admin-overview:stock.title',
  menu: { order: 1 },
  load: () => Promise.resolve({ default: () => <div>OTHER</div> }),
};

const operator = () => makeUser({ user_id: 1, email: 'ops@example.com', is_admin: true });

beforeEach(() => {
  api.on('userInfo', operator);
  api.on('adminOverview', (req) => overviewOf(Number(req.query.get('days'))));
  api.on('adminEconomicsSummary', () => SUMMARY);
});

/** The ECharts instance of a chart, once its series have arrived. */
async function chart(testId: string) {
  const element = await screen.findByTestId(testId);
  await waitFor(() => expect(echarts.getInstanceByDom(element)?.getOption()?.series).toBeTruthy());
  return echarts.getInstanceByDom(element)!.getOption() as {
    series: { name: string; data: number[] }[];
    xAxis: { data: string[] }[];
  };
}

describe('the operator overview', () => {
  it('is where /admin leads, first in the operator menu', async () => {
    const { router } = renderAt('/admin', { featureRoutes: [OTHER_SCREEN, ...adminOverviewRoutes] });
    await screen.findByTestId('overview-cards');
    expect(router.state.location.pathname).toBe('/admin/overview');
    const entries = within(screen.getByTestId('admin-sidebar'))
      .getAllByRole('menuitem')
      .map((item) => item.textContent);
    expect(entries).toEqual(['Overview', 'Stock by area']);
  });

  it('shows the totals of the window, the queues with links, live proxies by product and the stock', async () => {
    renderAt('/admin/overview', { featureRoutes: adminOverviewRoutes });
    const cards = await screen.findByTestId('overview-cards');
    await waitFor(() => expect(cards.textContent).toContain('¥150.10'));
    expect(cards.textContent).toContain('Recharges, last 30 days');
    expect(cards.textContent).toContain('Paid orders: 2');
    expect(cards.textContent).toContain('¥20.20');
    expect(cards.textContent).toContain('3.00 GB');
    expect(within(cards).getByText('Supply requests waiting').closest('.ant-card')!.textContent).toContain('3');
    expect(screen.getByTestId('overview-supply').getAttribute('href')).toBe('/admin/supply');
    expect(screen.getByTestId('overview-work-orders').getAttribute('href')).toBe('/admin/work-orders');
    expect(screen.getByTestId('overview-unmatched').getAttribute('href')).toBe('/admin/payments?tab=unmatched');

    const products = screen.getByTestId('overview-products');
    const dynamicRow = within(products).getByText('Dynamic').closest('tr')!;
    expect(dynamicRow.textContent).toBe('ISP residentialDynamicBy traffic4');
    expect(within(products).getByText('Data-center').closest('tr')!.textContent).toBe('Data-centerStaticBy IP9');
    const stock = screen.getByTestId('overview-stock');
    expect(within(stock).getByText('JP').closest('tr')!.textContent).toBe('JPResidential05');
    expect(within(stock).getByText('US').closest('tr')!.textContent).toBe('USData-center23');

    const money = await chart('overview-money-chart');
    expect(money.xAxis[0].data.slice(0, 2)).toEqual(['03-01', '03-02']);
    expect(money.series.map((s) => s.name)).toEqual(['Recharged', 'Spent']);
    expect(money.series[0].data.slice(0, 2)).toEqual([150.1, 0]);
    expect(money.series[1].data.slice(0, 2)).toEqual([0, 20.2]);
    const traffic = await chart('overview-traffic-chart');
    expect(traffic.series[0].data.slice(0, 3)).toEqual([0, 3, 0]);
  });

  it('asks for another window, and offers a retry when the overview cannot be loaded', async () => {
    renderAt('/admin/overview', { featureRoutes: adminOverviewRoutes });
    await waitFor(() => expect(api.requestsTo('adminOverview').at(-1)?.query.get('days')).toBe('30'));
    await screen.findByText('¥150.10');
    fireEvent.click(screen.getByText('7 days'));
    await screen.findByText('Recharges, last 7 days');
    await waitFor(() => expect(api.requestsTo('adminOverview').at(-1)?.query.get('days')).toBe('7'));
    expect((await chart('overview-money-chart')).xAxis[0].data).toHaveLength(7);

    let isDown = true;
    api.on('adminOverview', (req) =>
      isDown ? fail(500, 500, 'Server error') : overviewOf(Number(req.query.get('days'))),
    );
    fireEvent.click(screen.getByText('90 days'));
    await screen.findByText('The overview could not be loaded');
    isDown = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByText('Recharges, last 90 days');
  });

  it('shows the margin of today and of the last 30 days, a negative one in red, and links to the economics', async () => {
    renderAt('/admin/overview', { featureRoutes: adminOverviewRoutes });
    const today = await screen.findByTestId('margin-today');
    await waitFor(() => expect(today.textContent).toContain('-¥2.66'));
    expect(today.textContent).toContain('Revenue ¥0.34 − upstream cost ¥3.00');
    expect(within(today).getByText('-¥2.66').closest('.ant-statistic-content')!.getAttribute('style')).toContain(
      'color',
    );
    const month = screen.getByTestId('margin-month');
    expect(month.textContent).toContain('¥207.52');
    expect(
      within(month).getByText('¥207.52').closest('.ant-statistic-content')!.getAttribute('style') ?? '',
    ).not.toContain('color');
    expect(screen.getByTestId('overview-economics').getAttribute('href')).toBe('/admin/economics');
  });

  it('a customer gets the 403 page and the overview is never asked for', async () => {
    api.on('userInfo', () => makeUser({ user_id: 2, is_admin: false }));
    renderAt('/admin/overview', { featureRoutes: adminOverviewRoutes });
    await screen.findByTestId('admin-forbidden');
    expect(api.requestsTo('adminOverview')).toHaveLength(0);
    expect(api.requestsTo('adminEconomicsSummary')).toHaveLength(0);
  });

  it('writes byte counts in binary units', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1536)).toBe('1.50 KB');
    expect(formatBytes(3 * 1024 ** 3)).toBe('3.00 GB');
  });
});
