import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { AppProviders } from '../../../app/providers';
import { setLanguage } from '../../../lib/i18n';
import { DEFAULT_PRICE_CATALOGUE } from '@proxy/contract';
import { saveSession } from '../../../lib/session';
import { ok, startApiTestServer } from '../../../test/api-test-server';
import { PriceTable } from './price-table';

afterEach(() => cleanup());

describe('list-price table', { timeout: 20_000 }, () => {
  it('shows the contract prices: residential tiers, data-center traffic and the IP rates', () => {
    act(() => setLanguage('en'));
    render(<AppProviders><PriceTable /></AppProviders>);
    expect(screen.getAllByText('¥40.00 / GB under 100 GB')).toHaveLength(2); // static and dynamic alike
    expect(screen.getAllByText('¥38.00 / GB from 100 GB')).toHaveLength(2);
    expect(screen.getAllByText('¥35.00 / GB from 500 GB')).toHaveLength(2);
    expect(screen.getByText('¥10.00 / GB')).toBeTruthy();
    expect(screen.getAllByText('¥2.00 / IP / day')).toHaveLength(2);
    expect(screen.getByText('¥60.00 / IP / 30 days')).toBeTruthy();
    expect(screen.getByText('¥40.00 / IP / 30 days')).toBeTruthy();
    expect(screen.getByText('remaining days ¥1.33 / IP / day')).toBeTruthy();
  });

  it('is translated into Chinese', () => {
    act(() => setLanguage('zh'));
    render(<AppProviders><PriceTable /></AppProviders>);
    expect(screen.getByText('标准价格')).toBeTruthy();
    expect(screen.getAllByText('¥40.00 / GB（100 GB 以下）')).toHaveLength(2);
    act(() => setLanguage('en'));
  });

  it('shows the prices the server charges once they load', async () => {
    act(() => setLanguage('en'));
    saveSession('tok', { remember: true });
    const server = await startApiTestServer({
      'GET /token/prices': () => ok({ ...DEFAULT_PRICE_CATALOGUE, static_ip_day_fen: 250, idc_traffic_fen: 1200 }),
    });
    try {
      render(<AppProviders><PriceTable /></AppProviders>);
      expect(await screen.findByText('¥12.00 / GB')).toBeTruthy();
      expect(screen.getByText('¥2.50 / IP / day')).toBeTruthy();
    } finally {
      await server.close();
    }
  });
});
