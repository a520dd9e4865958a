import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { AppProviders } from '../../../app/providers';
import { setLanguage } from '../../../lib/i18n';
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
});
