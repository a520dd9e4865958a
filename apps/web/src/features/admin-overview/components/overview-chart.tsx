import { useEffect, useRef } from 'react';
import * as echarts from 'echarts/core';
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';
import { theme } from 'antd';

// Line and bar charts with the SVG renderer, as on the dashboard; this module is
// loaded lazily, so ECharts never weighs on the other operator screens.
echarts.use([LineChart, BarChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

/** One series of an overview chart. */
export type TOverviewSeries = { name: string; type: 'line' | 'bar'; data: number[]; color: string };

/** Props of an overview chart. */
export type TOverviewChartProps = {
  /** X-axis labels (days). */
  categories: string[];
  series: TOverviewSeries[];
  /** Formats values in the tooltip and the y-axis. */
  formatValue: (value: number) => string;
  /** Accessible summary of the chart. */
  label: string;
  testId: string;
};

const HEIGHT = 280;

/** Days as an ECharts line/bar chart following the antd theme (default export, loaded lazily). */
export default function OverviewChart({ categories, series, formatValue, label, testId }: TOverviewChartProps) {
  const { token } = theme.useToken();
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    // jsdom and hidden tabs have no layout: give the chart a size so it still renders.
    const size = element.clientWidth > 0 ? undefined : { width: 600, height: HEIGHT };
    const instance = echarts.init(element, undefined, { renderer: 'svg', ...size });
    chart.current = instance;
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => instance.resize());
    observer?.observe(element);
    return () => {
      observer?.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(
      {
        color: series.map((s) => s.color),
        textStyle: { fontFamily: token.fontFamily },
        grid: { left: 8, right: 16, top: 40, bottom: 8, containLabel: true },
        legend: { top: 0, textStyle: { color: token.colorTextSecondary } },
        tooltip: {
          trigger: 'axis',
          backgroundColor: token.colorBgElevated,
          borderColor: token.colorBorderSecondary,
          textStyle: { color: token.colorText },
          valueFormatter: (value: unknown) => formatValue(Number(value)),
        },
        xAxis: {
          type: 'category',
          data: categories,
          boundaryGap: series.some((s) => s.type === 'bar'),
          axisLine: { lineStyle: { color: token.colorBorder } },
          axisLabel: { color: token.colorTextSecondary },
        },
        yAxis: {
          type: 'value',
          axisLabel: { color: token.colorTextSecondary, formatter: (value: number) => formatValue(value) },
          splitLine: { lineStyle: { color: token.colorBorderSecondary } },
        },
        series: series.map((s) => ({
          name: s.name,
          type: s.type,
          data: s.data,
          showSymbol: categories.length <= 14,
          barMaxWidth: 24,
          itemStyle: { color: s.color, borderRadius: s.type === 'bar' ? [3, 3, 0, 0] : undefined },
          areaStyle: s.type === 'line' ? { opacity: 0.12 } : undefined,
        })),
      },
      { notMerge: true },
    );
  }, [
    categories,
    series,
    formatValue,
    token.colorBgElevated,
    token.colorBorder,
    token.colorBorderSecondary,
    token.colorText,
    token.colorTextSecondary,
    token.fontFamily,
  ]);

  return (
    <div ref={container} role="img" aria-label={label} data-testid={testId} style={{ height: HEIGHT, width: '100%' }} />
  );
}
