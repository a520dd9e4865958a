import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  DEFAULT_PRICE_CATALOGUE,
  PRICE_KEYS,
  type TAdminChargeOptions,
  type TAdminPrices,
  type TPriceVersion,
} from '@proxy/contract';
import { makeUser } from '../../../test/fixtures';
import { api, shownMessages } from '../../../test/harness';
import { fail } from '../../../test/api-stub';
import { renderAt } from '../../../test/render';
import { adminPricingRoutes } from '../routes';

let prices: TAdminPrices;
let history: TPriceVersion[];
let options: TAdminChargeOptions;

function listPrices(): TAdminPrices {
  return {
    prices: PRICE_KEYS.map((key) => ({
      key,
      amount_fen: DEFAULT_PRICE_CATALOGUE[key],
      version_id: 0,
      effective_at: null,
      default_fen: DEFAULT_PRICE_CATALOGUE[key],
      scheduled: [],
    })),
  };
}

beforeAll(async () => {
  await Promise.all(adminPricingRoutes.map((route) => route.load()));
});

beforeEach(() => {
  prices = listPrices();
  history = [];
  options = {
    current: {
      version: 1,
      effective_at: '1970-01-01T00:00:00.000Z',
      created_at: '2026-11-01T00:00:00.000Z',
      created_by: null,
      status: 'current',
      options: [
        { amount_fen: 10000, gift_fen: 0 },
        { amount_fen: 20000, gift_fen: 1000 },
      ],
    },
    scheduled: [],
    methods: [
      { method: 'alipay', is_configured: false, is_enabled: true, is_offered: false },
      { method: 'sandbox', is_configured: true, is_enabled: true, is_offered: true },
    ],
    fee: { percent: 1, fixed_fen: 100 },
    min_amount_fen: 100,
    max_amount_fen: 5_000_000,
  };
  api.on('userInfo', () => makeUser({ user_id: 9, email: 'ops@example.com', is_admin: true }));
  api.on('adminPriceList', () => prices);
  api.on('adminPriceHistory', () => ({ records: history, total: history.length, page: 1, page_size: 10 }));
  api.on('adminChargeOptions', () => options);
});

describe('operator area: prices and recharge options', () => {
  it('a customer gets the 403 page and no operator call', async () => {
    api.on('userInfo', () => makeUser({ user_id: 2, is_admin: false }));
    renderAt('/admin/prices', { featureRoutes: adminPricingRoutes });
    await screen.findByText('No permission', undefined, { timeout: 45_000 });
    expect(api.requestsTo('adminPriceList')).toHaveLength(0);
  });

  it('raises a price: the new version is in effect in the table and in its history', async () => {
    api.on('adminPriceCreate', (req) => {
      const body = req.json as { prices: { item: 'idc_traffic_fen'; amount_fen: number }[] };
      const version: TPriceVersion = {
        id: 5,
        key: 'idc_traffic_fen',
        amount_fen: body.prices[0]!.amount_fen,
        effective_at: '2026-11-22T10:00:00.000Z',
        created_at: '2026-11-22T10:00:00.000Z',
        created_by: 'ops@example.com',
        status: 'current',
      };
      prices = {
        prices: prices.prices.map((p) =>
          p.key === 'idc_traffic_fen'
            ? { ...p, amount_fen: version.amount_fen, version_id: 5, effective_at: version.effective_at }
            : p,
        ),
      };
      history = [version];
      return { versions: [version] };
    });
    renderAt('/admin/prices', { featureRoutes: adminPricingRoutes });
    expect((await screen.findByTestId('price-idc_traffic_fen', undefined, { timeout: 45_000 })).textContent).toBe(
      '¥10.00 / GB',
    );
    expect(screen.getByText('Data center traffic')).toBeTruthy();

    fireEvent.click(screen.getByTestId('edit-idc_traffic_fen'));
    const input = await screen.findByLabelText('New price (yuan)');
    fireEvent.change(input, { target: { value: '12.5' } });
    fireEvent.click(within(screen.getByRole('dialog')).getByText('Save as new version'));
    await waitFor(() => expect(shownMessages('success')).toContain('Version 5 is in effect'));
    expect(api.requestsTo('adminPriceCreate')[0]!.json).toEqual({
      prices: [{ item: 'idc_traffic_fen', amount_fen: 1250 }],
    });
    await waitFor(() => expect(screen.getByTestId('price-idc_traffic_fen').textContent).toBe('¥12.50 / GB'));
    const row = screen.getByTestId('price-idc_traffic_fen').closest('tr')!;
    expect(within(row).getByText('5')).toBeTruthy();

    fireEvent.click(screen.getByTestId('history-idc_traffic_fen'));
    const drawer = (await screen.findByText('Versions: Data center traffic')).closest('.ant-drawer') as HTMLElement;
    expect(await within(drawer).findByText('¥12.50')).toBeTruthy();
    expect(within(drawer).getByText('In effect')).toBeTruthy();
    expect(api.requestsTo('adminPriceHistory')[0]!.query.get('key')).toBe('idc_traffic_fen');
  });

  it("shows the server's message under the field when a price is refused, and keeps the dialog open", async () => {
    api.on('adminPriceCreate', () =>
      fail(400, 400, 'Invalid request parameters', {
        error: 'BAD_REQUEST',
        issues: [{ path: 'prices.0.amount_fen', message: 'A price must be a whole number of fen from 1 to 100000000' }],
      }),
    );
    renderAt('/admin/prices', { featureRoutes: adminPricingRoutes });
    fireEvent.click(await screen.findByTestId('edit-static_ip_day_fen', undefined, { timeout: 45_000 }));
    fireEvent.change(await screen.findByLabelText('New price (yuan)'), { target: { value: '3' } });
    fireEvent.click(within(screen.getByRole('dialog')).getByText('Save as new version'));
    expect(await screen.findByText('A price must be a whole number of fen from 1 to 100000000')).toBeTruthy();
    expect(screen.getByLabelText('New price (yuan)')).toBeTruthy();
  });

  it('a change at a time asks for the time before anything is sent', async () => {
    renderAt('/admin/prices', { featureRoutes: adminPricingRoutes });
    fireEvent.click(await screen.findByTestId('edit-dynamic_ip_day_fen', undefined, { timeout: 45_000 }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByText('At a time'));
    expect(await within(dialog).findByLabelText('Effective from')).toBeTruthy();
    fireEvent.click(within(dialog).getByText('Save as new version'));
    expect(await within(dialog).findByText('Choose the time it takes effect')).toBeTruthy();
    expect(api.requestsTo('adminPriceCreate')).toHaveLength(0);
  });

  it('edits the recharge options as a new version, shows the fixed fee and the method switches', async () => {
    api.on('adminChargeOptionCreate', (req) => {
      const body = req.json as { options: { amount_fen: number; gift_fen: number }[] };
      return {
        version: 2,
        effective_at: '2026-11-22T10:00:00.000Z',
        created_at: '2026-11-22T10:00:00.000Z',
        created_by: 'ops@example.com',
        status: 'current' as const,
        options: body.options,
      };
    });
    api.on('adminPayMethodSet', (req) => ({
      method: 'sandbox' as const,
      is_configured: true,
      is_enabled: (req.json as { is_enabled: boolean }).is_enabled,
      is_offered: false,
    }));
    renderAt('/admin/prices', { featureRoutes: adminPricingRoutes });
    // The installation's first version: in effect since the install (not "since 1970-01-01 08:00").
    expect((await screen.findByTestId('options-in-effect', undefined, { timeout: 45_000 })).textContent).toBe(
      'In effect: version 1 since the installation',
    );
    expect(screen.getByTestId('fee').textContent).toContain('1% of the amount + ¥1.00');
    expect(screen.getByTestId('fee').textContent).toContain('cannot be edited');

    const gifts = screen.getAllByLabelText('Gift (yuan)');
    fireEvent.change(gifts[0]!, { target: { value: '5' } });
    fireEvent.click(screen.getByText('Save as new version'));
    await waitFor(() => expect(shownMessages('success')).toContain('Version 2 is in effect'));
    expect(api.requestsTo('adminChargeOptionCreate')[0]!.json).toEqual({
      options: [
        { amount_fen: 10000, gift_fen: 500 },
        { amount_fen: 20000, gift_fen: 1000 },
      ],
    });

    const alipay = screen.getByTestId('method-alipay');
    expect(within(alipay).getByText(/Not configured on the server/)).toBeTruthy();
    // Switched on in the database but not configured on the server: shown off, and cannot be switched.
    expect((within(alipay).getByRole('switch') as HTMLButtonElement).disabled).toBe(true);
    expect(within(alipay).getByRole('switch').getAttribute('aria-checked')).toBe('false');
    fireEvent.click(within(screen.getByTestId('method-sandbox')).getByRole('switch'));
    await waitFor(() => expect(api.requestsTo('adminPayMethodSet')).toHaveLength(1));
    expect(api.requestsTo('adminPayMethodSet')[0]!.json).toEqual({ method: 'sandbox', is_enabled: false });
    await waitFor(() => expect(shownMessages('success')).toContain('Sandbox is now Off'));
  });
});
