import { beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TRouteOutput } from '@proxy/contract';
import { setLanguage } from '../../../lib/i18n';
import { fail } from '../../../test/api-stub';
import { makeUser } from '../../../test/fixtures';
import { api, shownMessages } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { adminSiteRoutes } from '../routes';

let settings: TRouteOutput<'adminSystemSettings'>;
const COUNTRIES = [
  { id: 'de', name_zh: '德国', name_en: 'Germany', has_exits: true, has_pools: false },
  { id: 'us', name_zh: '美国', name_en: 'United States of America', has_exits: true, has_pools: true },
];

beforeEach(() => {
  settings = {
    admin_totp_required: false,
    ip_dynamic_fair_use_gb_per_day: 0,
    claim_residential_ips: '32M+',
    claim_countries: 195,
    claim_uptime: '99.9%',
  };
  api.on('userInfo', () => makeUser({ user_id: 1, email: 'ops@example.com', is_admin: true }));
  api.on('adminNoticeCurrent', () => null);
  api.on('adminSystemSettings', () => settings);
  api.on('adminSystemClaimsStock', () => ({ countries: COUNTRIES, pools_serve_all: false }));
  api.on('adminSystemSettingsUpdate', (req) => {
    settings = { ...settings, ...(req.json as object) };
    return settings;
  });
});

async function openCard() {
  renderAt('/admin/notice', { featureRoutes: adminSiteRoutes });
  return within(await screen.findByTestId('claims-form'));
}

describe('marketing figures (operator area)', () => {
  it('warns while the claimed countries exceed those in stock, and saves the figures', async () => {
    const form = await openCard();
    expect((form.getByLabelText('Residential IPs') as HTMLInputElement).value).toBe('32M+');
    const stock = within(await screen.findByTestId('claims-stock'));
    expect(stock.getByTestId('claims-stock-count').textContent).toBe(
      '2 countries in stock: 2 with active exits, 1 named by enabled pools.',
    );
    expect(stock.getByTestId('claims-country-de').textContent).toBe('Germany · exits');
    expect(stock.getByTestId('claims-country-us').textContent).toBe('United States of America · exits and pools');
    expect(stock.getByTestId('claims-overclaimed').textContent).toBe(
      'The figures claim 195 countries, but only 2 are in stock.',
    );

    fireEvent.change(form.getByLabelText('Residential IPs'), { target: { value: '2K+' } });
    fireEvent.change(form.getByLabelText('Countries'), { target: { value: '2' } });
    await waitFor(() => expect(stock.queryByTestId('claims-overclaimed')).toBeNull());
    fireEvent.click(screen.getByTestId('claims-save'));
    await waitFor(() => expect(shownMessages('success')).toContain('The marketing figures are saved'));
    expect(api.requestsTo('adminSystemSettingsUpdate')[0].json).toEqual({
      claim_residential_ips: '2K+',
      claim_countries: 2,
      claim_uptime: '99.9%',
    });
  });

  it('refuses figures out of bounds before sending, and shows the server reason under its field (zh)', async () => {
    act(() => setLanguage('zh'));
    const form = await openCard();
    fireEvent.change(form.getByLabelText('国家数'), { target: { value: '251' } });
    fireEvent.change(form.getByLabelText('可用率'), { target: { value: '' } });
    fireEvent.click(screen.getByTestId('claims-save'));
    expect(await screen.findByText('国家数须为 1-250 的整数')).toBeTruthy();
    expect(screen.getByText('该数字须为 1-16 个字符')).toBeTruthy();
    expect(api.requestsTo('adminSystemSettingsUpdate')).toHaveLength(0);

    api.on('adminSystemSettingsUpdate', () =>
      fail(400, 400, '参数错误', { issues: [{ path: 'claim_uptime', message: '服务器拒绝了该值' }] }),
    );
    fireEvent.change(form.getByLabelText('国家数'), { target: { value: '3' } });
    fireEvent.change(form.getByLabelText('可用率'), { target: { value: '99%' } });
    fireEvent.click(screen.getByTestId('claims-save'));
    expect(await screen.findByText('服务器拒绝了该值')).toBeTruthy();
  });

  it('says so when an enabled pool covers every country, with no warning', async () => {
    api.on('adminSystemClaimsStock', () => ({ countries: [], pools_serve_all: true }));
    await openCard();
    const stock = within(await screen.findByTestId('claims-stock'));
    expect(stock.getByText(/An enabled pool covers all countries/)).toBeTruthy();
    expect(stock.queryByTestId('claims-overclaimed')).toBeNull();
  });
});
