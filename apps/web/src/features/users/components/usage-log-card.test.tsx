import { beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TUsageLogSettings } from '@proxy/contract';
import { setLanguage } from '../../../lib/i18n';
import { api, shownMessages } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { UsageLogCard } from './usage-log-card';

/** The server's stored settings; a PUT replaces them (the domain switch only when sent). */
let stored: TUsageLogSettings;
let puts: Record<string, unknown>[];

beforeEach(() => {
  stored = { enabled: false, retention_days: 7, domain_usage_enabled: true };
  puts = [];
  api.on('userUsageLogSettings', () => stored);
  api.on('userUsageLogSettingsUpdate', (req) => {
    const body = req.json as Partial<TUsageLogSettings> & { enabled: boolean; retention_days: number };
    puts.push(body);
    stored = { ...stored, ...body };
    return stored;
  });
});

const card = async () => (await screen.findByText('Usage settings')).closest('.ant-card') as HTMLElement;

describe('usage settings card', { timeout: 60_000 }, () => {
  it('shows usage by target domain on by default, says past days stay, and saves it off', async () => {
    renderAt('/', <UsageLogCard />);
    const box = await card();
    const domains = (await within(box).findByTestId('domain-usage-enabled')) as HTMLButtonElement;
    expect(domains.getAttribute('aria-checked')).toBe('true');
    expect(within(box).getByText(/the days already recorded stay/)).toBeTruthy();
    expect((within(box).getByTestId('usage-log-enabled') as HTMLButtonElement).getAttribute('aria-checked')).toBe(
      'false',
    );

    fireEvent.click(domains);
    fireEvent.click(within(box).getByTestId('usage-log-save'));
    await waitFor(() => expect(puts).toEqual([{ enabled: false, retention_days: 7, domain_usage_enabled: false }]));
    await waitFor(() => expect(shownMessages('success')).toContain('Usage settings saved'));
    expect(domains.getAttribute('aria-checked')).toBe('false');
  });

  it('is translated into Chinese', async () => {
    await act(() => setLanguage('zh'));
    renderAt('/', <UsageLogCard />);
    expect(await screen.findByText('用量设置')).toBeTruthy();
    expect(await screen.findByText('按目标域名统计用量')).toBeTruthy();
    expect(screen.getByText(/已记录的日期保留/)).toBeTruthy();
  });
});
