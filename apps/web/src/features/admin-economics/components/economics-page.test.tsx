import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  NO_POOL_HEALTH,
  ERRORS,
  type TEconomicsReport,
  type TEconomicsRow,
  type TPool,
  type TReconciliation,
} from '@proxy/contract';
import { fail, raw } from '../../../test/api-stub';
import { makeUser } from '../../../test/fixtures';
import { api, shownMessages } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { setLanguage } from '../../../lib/i18n';
import { adminEconomicsRoutes } from '../routes';

const G = 1024 ** 3;
const NO_KEY = {
  day: null,
  carrier_kind: null,
  carrier_id: null,
  carrier_name: null,
  category: null,
  product: null,
  billing: null,
  country: null,
} as const;
const row = (over: Partial<TEconomicsRow>): TEconomicsRow => ({
  line: 'carried',
  ...NO_KEY,
  bytes: 0,
  uncharged_bytes: 0,
  cost_fen: 0,
  revenue_fen: 0,
  margin_fen: 0,
  is_negative: false,
  ...over,
});
const TOTALS = {
  bytes: 2 * G,
  uncharged_bytes: G / 4,
  carried_bytes: G,
  unused_bytes: G,
  cost_fen: 26_401,
  revenue_fen: 5351,
  carried_revenue_fen: 1601,
  sold_not_carried_fen: 3750,
  margin_fen: -21_050,
  is_negative: true,
};
const BY_DAY: TEconomicsReport = {
  from: '2026-04-05',
  to: '2026-05-04',
  group_by: 'day',
  rows: [
    row({ day: '2026-05-01', bytes: G / 2, cost_fen: 800, revenue_fen: 1034, margin_fen: 234 }),
    row({
      day: '2026-05-02',
      bytes: G / 2,
      uncharged_bytes: G / 4,
      cost_fen: 25_601,
      revenue_fen: 567,
      margin_fen: -25_034,
      is_negative: true,
    }),
    row({ line: 'sold_not_carried', day: '2026-05-02', bytes: G, revenue_fen: 3750, margin_fen: 3750 }),
  ],
  totals: TOTALS,
};
const BY_CARRIER: TEconomicsReport = {
  ...BY_DAY,
  group_by: 'carrier',
  rows: [
    row({
      carrier_kind: 'pool',
      carrier_id: 1,
      carrier_name: 'Pool A',
      bytes: G / 2,
      cost_fen: 500,
      revenue_fen: 1000,
      margin_fen: 500,
    }),
    row({
      carrier_kind: 'pool',
      carrier_id: 2,
      carrier_name: 'Pool B',
      bytes: G / 4,
      cost_fen: 25_000,
      revenue_fen: 500,
      margin_fen: -24_500,
      is_negative: true,
    }),
    row({ carrier_kind: 'none', carrier_id: 0, bytes: 1000 }),
    row({ line: 'sold_not_carried', bytes: G, revenue_fen: 3750, margin_fen: 3750 }),
  ],
};
const POOL = {
  id: 1,
  name: 'Pool A',
  kind: 'residential',
  protocol: 'http-connect',
  endpoints: [{ host: 'pool.example', port: 7777 }],
  username: 'acme',
  has_password: true,
  username_template: '{user}-{country}',
  template_placeholders: ['user', 'country'],
  session_length: 12,
  area_case: 'lower',
  area_mapping_count: 0,
  coverage_mode: 'all',
  coverage_count: 0,
  cost_per_gb_fen: 1000,
  priority: 10,
  weight: 100,
  max_connections: 1000,
  exit_ip_header: null,
  session_idle_minutes: null,
  status: 'enabled',
  last_check: null,
  health: NO_POOL_HEALTH,
  created_at: '2026-04-01T00:00:00.000Z',
  updated_at: '2026-04-01T00:00:00.000Z',
} satisfies TPool;
const RECONCILIATION: TReconciliation = {
  pool_id: 1,
  pool_name: 'Pool A',
  from: '2026-04-05',
  to: '2026-05-04',
  threshold_bp: 200,
  days: [
    {
      day: '2026-04-10',
      our_bytes: 1_000_000,
      provider_bytes: 1_020_001,
      difference_bytes: 20_001,
      difference_bp: 200,
      is_flagged: true,
    },
    {
      day: '2026-04-11',
      our_bytes: 1_000_000,
      provider_bytes: null,
      difference_bytes: null,
      difference_bp: null,
      is_flagged: false,
    },
    {
      day: '2026-04-12',
      our_bytes: 0,
      provider_bytes: null,
      difference_bytes: null,
      difference_bp: null,
      is_flagged: false,
    },
  ],
  totals: { our_bytes: 2_000_000, provider_bytes: 1_020_001, flagged_days: 1 },
};

const savedCreate = URL.createObjectURL;
const savedRevoke = URL.revokeObjectURL;
beforeEach(() => {
  api.on('userInfo', () => makeUser({ user_id: 1, email: 'ops@example.com', is_admin: true }));
  api.on('adminEconomics', (req) => (req.query.get('group_by') === 'carrier' ? BY_CARRIER : BY_DAY));
  api.on('adminPools', () => ({ records: [POOL], total: 1, page: 1, page_size: 200 }));
  api.on('adminEconomicsReconciliation', () => RECONCILIATION);
  // jsdom has no object URLs; the download itself is the browser's business.
  URL.createObjectURL = () => 'blob:economics';
  URL.revokeObjectURL = () => undefined;
});
afterEach(() => {
  URL.createObjectURL = savedCreate;
  URL.revokeObjectURL = savedRevoke;
});

const render = () => renderAt('/admin/economics', { featureRoutes: adminEconomicsRoutes });
const rowOf = async (text: string) => (await screen.findByText(text)).closest('tr')!;

describe('economics (operator area)', () => {
  it('shows the last 30 days by day with totals, the negative margins flagged and unused allowance on its own line', async () => {
    render();
    expect((await screen.findByTestId('economics-range')).textContent).toBe('UTC days 2026-04-05 to 2026-05-04');
    expect(screen.getByTestId('margin').textContent).toBe('-¥210.50 Negative');
    expect(screen.getByText('of which ¥37.50 sold, not carried')).toBeTruthy();
    const first = await rowOf('2026-05-01');
    expect(within(first).getByText('512.00 MB')).toBeTruthy();
    expect(within(first).getByText('¥8.00')).toBeTruthy();
    expect(within(first).queryByText('Negative')).toBeNull();
    const table = screen.getByTestId('economics-table');
    const second = within(table).getAllByText('2026-05-02')[0].closest('tr')!;
    expect(within(second).getByText('-¥250.34')).toBeTruthy();
    expect(within(second).getByText('Negative')).toBeTruthy();
    // Uncharged bytes have their own column (a dash where there are none), and their total.
    const uncharged = [...screen.getAllByRole('columnheader')].findIndex((th) => th.textContent === 'Uncharged bytes');
    expect(uncharged).toBeGreaterThan(0);
    expect(second.querySelectorAll('td')[uncharged].textContent).toBe('256.00 MB');
    expect(first.querySelectorAll('td')[uncharged].textContent).toBe('–');
    expect(screen.getByTestId('total-uncharged').textContent).toBe('256.00 MB');
    const sold = within(table).getByText('Sold, not carried').closest('tr')!;
    expect(within(sold).getByText('¥37.50', { selector: 'td' })).toBeTruthy();
    expect(screen.getByTestId('total-margin').textContent).toBe('-¥210.50 Negative');
    expect(api.requestsTo('adminEconomics')[0].query.get('group_by')).toBe('day');
    expect(api.requestsTo('adminEconomics')[0].query.has('from')).toBe(false);
  });

  it('groups by pool or exit, names the bytes no upstream carried, and exports the same filters as CSV', async () => {
    api.on('adminEconomicsExport', () => raw('line,day\n', { headers: { 'content-type': 'text/csv; charset=utf-8' } }));
    render();
    await screen.findByTestId('economics-range');
    fireEvent.click(screen.getByText('Pool or exit'));
    const pool = await rowOf('Pool · Pool B');
    expect(within(pool).getByText('Negative')).toBeTruthy();
    expect(within(pool).getByText('256.00 MB')).toBeTruthy();
    expect(screen.getByText('Not carried by an upstream')).toBeTruthy();
    expect(screen.getByText('Sold, not carried')).toBeTruthy();

    fireEvent.click(screen.getByTestId('economics-export'));
    await waitFor(() => expect(api.requestsTo('adminEconomicsExport')).toHaveLength(1));
    expect(Object.fromEntries(api.requestsTo('adminEconomicsExport')[0].query)).toEqual({ group_by: 'carrier' });
  });

  it("sets a pool's bytes beside the provider's, flags a day, and names the refused lines of an import", async () => {
    render();
    fireEvent.mouseDown(await screen.findByLabelText('Pool'));
    fireEvent.click(await screen.findByText('Pool A', { selector: '.ant-select-item-option-content' }));
    const flagged = await rowOf('2026-04-10');
    expect(within(flagged).getByText('Above threshold')).toBeTruthy();
    expect(within(flagged).getByText(/\+19\.53 KB \(2\.00 %\)/)).toBeTruthy();
    expect(within(await rowOf('2026-04-11')).getByText('Not in the report')).toBeTruthy();
    // A day with neither our bytes nor a report is left out.
    expect(screen.queryByText('2026-04-12')).toBeNull();
    expect(screen.getByTestId('reconciliation-totals').textContent).toContain('1 day(s) flagged');
    expect(api.requestsTo('adminEconomicsReconciliation')[0].query.get('threshold_bp')).toBe('200');

    api.on('adminEconomicsReconciliationImport', () =>
      fail(400, ERRORS.RECONCILIATION_CSV_INVALID.code, 'Line 3: 2026-13-01 is not a day (YYYY-MM-DD)', {
        error: 'RECONCILIATION_CSV_INVALID',
        issues: [
          { path: 'csv', message: 'Line 3: 2026-13-01 is not a day (YYYY-MM-DD)' },
          { path: 'csv', message: 'Line 4: PB is not a unit (B, KB, MB, GB or TB, binary)' },
        ],
      }),
    );
    fireEvent.change(screen.getByLabelText('Provider report (CSV)'), {
      target: { value: 'day,bytes\n2026-05-01,1\n2026-13-01,5\n2026-05-03,1,PB\n' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    const problems = await screen.findByTestId('import-errors');
    expect(problems.textContent).toContain('Nothing imported: 2 problem(s)');
    expect(problems.textContent).toContain('Line 4: PB is not a unit');
    expect(api.requestsTo('adminEconomicsReconciliationImport')[0].json).toEqual({
      id: 1,
      csv: 'day,bytes\n2026-05-01,1\n2026-13-01,5\n2026-05-03,1,PB\n',
    });

    api.on('adminEconomicsReconciliationImport', () => ({ pool_id: 1, days: 1, from: '2026-05-01', to: '2026-05-01' }));
    fireEvent.change(screen.getByLabelText('Provider report (CSV)'), { target: { value: '2026-05-01,1\n' } });
    fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    await waitFor(() => expect(shownMessages('success')).toContain('Imported 1 day(s), 2026-05-01 to 2026-05-01'));
    await waitFor(() => expect(api.requestsTo('adminEconomicsReconciliation').length).toBeGreaterThan(1));
    expect(screen.queryByTestId('import-errors')).toBeNull();
  });

  it('speaks Chinese', async () => {
    act(() => setLanguage('zh'));
    render();
    expect((await screen.findByTestId('economics-range')).textContent).toBe('UTC 日期 2026-04-05 至 2026-05-04');
    expect(screen.getByTestId('margin').textContent).toBe('-¥210.50 亏损');
    expect(screen.getAllByText('已售未承载').length).toBeGreaterThan(0);
    expect(screen.getByRole('columnheader', { name: '未计费字节' })).toBeTruthy();
  });

  it('a customer gets the 403 page and no economics call', async () => {
    api.on('userInfo', () => makeUser({ user_id: 2, is_admin: false }));
    render();
    await screen.findByTestId('admin-forbidden');
    expect(api.requestsTo('adminEconomics')).toHaveLength(0);
    expect(api.requestsTo('adminPools')).toHaveLength(0);
  });
});
