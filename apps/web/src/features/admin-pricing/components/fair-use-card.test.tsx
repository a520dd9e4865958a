import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TSystemSettings } from '@proxy/contract';
import { setLanguage } from '../../../lib/i18n';
import { makeUser } from '../../../test/fixtures';
import { api, shownMessages } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { adminPricingRoutes } from '../routes';

let settings: TSystemSettings;

beforeAll(async () => {
  await Promise.all(adminPricingRoutes.map((route) => route.load()));
});

beforeEach(() => {
  settings = {
    admin_totp_required: false,
    ip_dynamic_fair_use_gb_per_day: 0,
    claim_residential_ips: '32M+',
    claim_countries: 195,
    claim_uptime: '99.9%',
  };
  api.on('userInfo', () => makeUser({ user_id: 9, email: 'ops@example.com', is_admin: true }));
  api.on('adminPriceList', () => ({ prices: [] }));
  api.on('adminChargeOptions', () => ({
    current: null,
    scheduled: [],
    methods: [],
    fee: { percent: 0, fixed_fen: 0 },
    min_amount_fen: 100,
    max_amount_fen: 5_000_000,
  }));
  api.on('adminSystemSettings', () => settings);
  api.on('adminSystemSettingsUpdate', (req) => {
    settings = { ...settings, ...(req.json as Partial<TSystemSettings>) };
    return settings;
  });
});

async function openCard() {
  renderAt('/admin/prices', { featureRoutes: adminPricingRoutes });
  const title = await screen.findByText('Fair use of IP-billed dynamic proxies', undefined, { timeout: 45_000 });
  return title.closest('.ant-card') as HTMLElement;
}

function setGb(card: HTMLElement, value: string, label = 'Fair-use traffic') {
  const input = within(card).getByLabelText(label);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
}

describe('operator area: fair-use traffic of IP-billed dynamic proxies', () => {
  it('shows the setting (off by default) and saves GB per day', async () => {
    const card = await openCard();
    await waitFor(() =>
      expect((within(card).getByLabelText('Fair-use traffic') as HTMLInputElement).value).toBe('0.0'),
    );
    setGb(card, '2.5');
    fireEvent.click(within(card).getByTestId('fair-use-save'));
    await waitFor(() => expect(shownMessages('success')).toContain('Fair use saved: 2.5 GB per day'));
    expect(api.requestsTo('adminSystemSettingsUpdate').map((r) => r.json)).toEqual([
      { ip_dynamic_fair_use_gb_per_day: 2.5 },
    ]);
  });

  it('refuses a value out of bounds or with two decimals, in en and zh, and sends nothing', async () => {
    const card = await openCard();
    await within(card).findByText('0 to 1000 GB per day, one decimal; 0 is off.');
    await waitFor(() => expect(api.requestsTo('adminSystemSettings')).toHaveLength(1));
    await waitFor(() =>
      expect((within(card).getByLabelText('Fair-use traffic') as HTMLInputElement).value).toBe('0.0'),
    );
    setGb(card, '0.25');
    fireEvent.click(within(card).getByTestId('fair-use-save'));
    expect(
      await within(card).findByText(
        'The fair-use traffic must be 0 to 1000 GB per day (0 turns it off), with at most one decimal',
      ),
    ).toBeTruthy();
    act(() => setLanguage('zh'));
    setGb(card, '1001', '合理使用流量');
    expect(await within(card).findByText('合理使用流量为 0-1000 GB/天（0 为关闭），最多一位小数')).toBeTruthy();
    expect(api.requestsTo('adminSystemSettingsUpdate')).toHaveLength(0);
  });
});
