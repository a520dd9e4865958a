import { beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { DEFAULT_ALERT_CHANNELS, type TAlertSettings } from '@proxy/contract';
import { setLanguage } from '../../../lib/i18n';
import { writeRecord } from '../../../lib/storage';
import { fail } from '../../../test/api-stub';
import { makeUser } from '../../../test/fixtures';
import { api, shownMessages } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { usersRoutes } from '../routes';
import { AlertSettingsCard } from './alert-settings-card';

/** The server's stored settings; a PUT replaces them. */
let stored: TAlertSettings;

beforeEach(() => {
  stored = { usage_thresholds: [80, 100], balance_low_yuan: null, channels: structuredClone(DEFAULT_ALERT_CHANNELS) };
  writeRecord('local', 'NOTICE_HIDDEN', true);
  api.on('userInfo', () => makeUser());
  api.on('userNotificationList', () => ({ records: [], total: 0, page: 1, page_size: 1, unread: 0 }));
  api.on('userSessions', () => []);
  api.on('userTotpStatus', () => ({ enabled: false, enabled_at: null, recovery_codes_left: 0, admin_required: false }));
  api.on('userAlertSettingsGet', () => stored);
  api.on('userAlertSettingsPut', (req) => {
    stored = req.json as TAlertSettings;
    return stored;
  });
});

const card = async () => (await screen.findByText('Traffic alerts at')).closest('.ant-card') as HTMLElement;

describe('alert settings card', { timeout: 120_000 }, () => {
  it('is shown in the user centre', async () => {
    renderAt('/user-center', { featureRoutes: usersRoutes });
    expect(await screen.findByText('Traffic alerts at')).toBeTruthy();
  });

  it('shows the defaults and saves thresholds, the balance threshold and a channel switch', async () => {
    renderAt('/', <AlertSettingsCard />);
    const alerts = await card();
    // The third channel, webhooks, is chosen per endpoint: the card links there.
    expect(within(alerts).getByRole('link', { name: 'Set up webhooks' }).getAttribute('href')).toBe(
      '/developer/webhooks',
    );
    const fifty = within(alerts).getByLabelText('50 %') as HTMLInputElement;
    expect(fifty.checked).toBe(false);
    expect((within(alerts).getByLabelText('80 %') as HTMLInputElement).checked).toBe(true);
    const balanceInput = alerts.querySelector('input.ant-input-number-input') as HTMLInputElement;
    expect(balanceInput.disabled).toBe(true);

    fireEvent.click(fifty);
    fireEvent.click(within(alerts).getByLabelText('Alert when the available balance is below'));
    await waitFor(() => expect(balanceInput.disabled).toBe(false));
    fireEvent.change(balanceInput, { target: { value: '12.5' } });
    const lowBalanceMail = within(alerts).getByLabelText('Low balance: E-mail');
    expect(lowBalanceMail.getAttribute('aria-checked')).toBe('true');
    fireEvent.click(lowBalanceMail);
    fireEvent.click(within(alerts).getByText('Save').closest('button')!);

    await waitFor(() => expect(api.requestsTo('userAlertSettingsPut')).toHaveLength(1));
    const sent = api.requestsTo('userAlertSettingsPut')[0].json as TAlertSettings;
    expect([...sent.usage_thresholds].sort()).toEqual([100, 50, 80].sort());
    expect(sent.balance_low_yuan).toBe(12.5);
    expect(sent.channels.balance_low).toEqual({ console: true, email: false });
    expect(sent.channels.usage_threshold).toEqual({ console: true, email: true });
    await waitFor(() => expect(shownMessages('success')).toContain('Alert settings saved'));
  });

  it("marks the field the server refused with the server's message", async () => {
    api.on('userAlertSettingsPut', () =>
      fail(400, 400, 'Invalid request parameters', {
        error: 'BAD_REQUEST',
        issues: [
          {
            path: 'balance_low_yuan',
            message: 'The balance alert threshold must be 0.01 to 1000000 yuan with at most two decimals',
          },
        ],
      }),
    );
    stored = { ...stored, balance_low_yuan: 5 };
    renderAt('/', <AlertSettingsCard />);
    const alerts = await card();
    fireEvent.click(within(alerts).getByText('Save').closest('button')!);
    expect(
      await within(alerts).findByText(
        'The balance alert threshold must be 0.01 to 1000000 yuan with at most two decimals',
      ),
    ).toBeTruthy();
  });

  it('is translated into Chinese', async () => {
    act(() => setLanguage('zh'));
    renderAt('/', <AlertSettingsCard />);
    const alerts = (await screen.findByText('流量提醒阈值')).closest('.ant-card') as HTMLElement;
    expect(within(alerts).getByText('提醒设置')).toBeTruthy();
    expect(within(alerts).getByText('自动续费将失败（提前一天）')).toBeTruthy();
    expect(within(alerts).getByLabelText('余额不足: 邮件')).toBeTruthy();
  });
});
