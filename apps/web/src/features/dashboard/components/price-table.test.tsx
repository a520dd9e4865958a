import { describe, expect, it } from 'vitest';
import { act, screen } from '@testing-library/react';
import { DEFAULT_PRICE_CATALOGUE } from '@proxy/contract';
import { setLanguage } from '../../../lib/i18n';
import { api } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { PriceTable } from './price-table';

describe('list-price table', () => {
  it('shows the contract prices: residential tiers, data-center traffic and the IP rates', () => {
    renderAt('/', <PriceTable />);
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
    renderAt('/', <PriceTable />);
    expect(screen.getByText('标准价格')).toBeTruthy();
    expect(screen.getAllByText('¥40.00 / GB（100 GB 以下）')).toHaveLength(2);
  });

  it('shows the prices the server charges once they load', async () => {
    api.on('tokenPrices', () => ({ ...DEFAULT_PRICE_CATALOGUE, static_ip_day_fen: 250, idc_traffic_fen: 1200 }));
    renderAt('/', <PriceTable />);
    expect(await screen.findByText('¥12.00 / GB')).toBeTruthy();
    expect(screen.getByText('¥2.50 / IP / day')).toBeTruthy();
  });
});
