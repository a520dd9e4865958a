import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { renderAt } from '../../../test/render';
import TrendChart, { valueTicks } from './trend-chart';

const SERIES = [
  { name: 'Spend', type: 'bar' as const, data: [1, 4, 2], color: '#0059ff' },
  { name: 'Recharge', type: 'line' as const, data: [0, 10, 0], color: '#52c41a' },
];

const seriesNames = (chart: HTMLElement) =>
  [...chart.querySelectorAll<SVGGElement>('g[data-series]')].map((g) => g.dataset.series);

describe('trend chart', () => {
  it('steps the value axis in round numbers of at least the smallest interval', () => {
    expect(valueTicks([0, 3], 1)).toEqual([0, 1, 2, 3]);
    expect(valueTicks([0, 0.3], 0.01)).toEqual([0, 0.1, 0.2, 0.3]);
    expect(valueTicks([0, 930], 0.01)).toEqual([0, 200, 400, 600, 800, 1000]);
    expect(valueTicks([0, 0], 1)).toEqual([0, 1]);
    expect(valueTicks([-3, 4], 1)).toEqual([-4, -2, 0, 2, 4]);
  });

  it('names itself, hides and shows a series from the legend, and tells the values of a day on hover', () => {
    renderAt(
      '/',
      <TrendChart
        categories={['01-01', '01-02', '01-03']}
        series={SERIES}
        formatValue={(v) => `¥${v.toFixed(2)}`}
        label="Spend over time"
      />,
    );
    const chart = screen.getByTestId('trend-chart');
    expect(screen.getByRole('img', { name: 'Spend over time' })).toBeTruthy();
    expect(seriesNames(chart)).toEqual(['Spend', 'Recharge']);

    const recharge = screen.getByRole('button', { name: 'Recharge' });
    fireEvent.click(recharge);
    expect(recharge.getAttribute('aria-pressed')).toBe('false');
    expect(seriesNames(chart)).toEqual(['Spend']);
    fireEvent.click(recharge);
    expect(seriesNames(chart)).toEqual(['Spend', 'Recharge']);

    // jsdom lays nothing out: the plot starts at x 0 of the page, the chart is 600 pixels wide.
    const plot = chart.querySelector('svg > rect')!;
    fireEvent.mouseMove(plot, { clientX: Number(plot.getAttribute('width')) / 2 });
    const tooltip = within(chart).getByText('01-02', { selector: 'div' }).parentElement!;
    expect(within(tooltip).getByText('¥4.00')).toBeTruthy();
    expect(within(tooltip).getByText('¥10.00')).toBeTruthy();
    fireEvent.mouseLeave(plot);
    expect(within(chart).queryByText('01-02', { selector: 'div' })).toBeNull();
  });
});
