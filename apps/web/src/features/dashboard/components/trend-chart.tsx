import { useEffect, useRef } from 'react';
import * as echarts from 'echarts/core';
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';
import { theme } from 'antd';

// Only line and bar charts, their grid, legend and tooltip, and the SVG renderer.
// This module is loaded lazily by the dashboard, so sign-in never downloads it.
// ECharts is driven directly rather than through echarts-for-react: that wrapper
// depends on React, and the build's "echarts" vendor group would then pull React
// (and so ECharts) into the entry chunk of every page, the login page included.
echarts.use([LineChart, BarChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

/** One series of a trend chart. */
export type TTrendSeries = { name: string; type: 'line' | 'bar'; data: number[]; color: string };

/** Props of a trend chart. */
export type TTrendChartProps = {
  /** X-axis labels (dates). */
  categories: string[];
  series: TTrendSeries[];
  /** Formats values in the tooltip and the y-axis, e.g. "¥2.00" or "1.5 GB". */
  formatValue?: (value: number) => string;
  /** Accessible summary of the chart. */
  label: string;
  height?: number;
  /** Smallest step between y-axis labels (1 for whole units such as bytes); 0.01 by default. */
  minInterval?: number;
};

/** A time series as an ECharts line/bar chart that follows the antd theme (default export, loaded lazily). */
export default function TrendChart({ categories, series, formatValue, label, height = 280, minInterval = 0.01 }: TTrendChartProps) {
  const { token } = theme.useToken();
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    // jsdom and hidden tabs have no layout: give the chart a size so it still renders.
    const size = element.clientWidth > 0 ? undefined : { width: 600, height };
    const instance = echarts.init(element, undefined, { renderer: 'svg', ...size });
    chart.current = instance;
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => instance.resize());
    observer?.observe(element);
    return () => {
      observer?.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, [height]);

  useEffect(() => {
    const format = formatValue ?? ((value: number) => String(value));
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
          valueFormatter: (value: unknown) => format(Number(value)),
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
          minInterval,
          axisLabel: { color: token.colorTextSecondary, formatter: (value: number) => format(value) },
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
    minInterval,
    token.colorBgElevated,
    token.colorBorder,
    token.colorBorderSecondary,
    token.colorText,
    token.colorTextSecondary,
    token.fontFamily,
  ]);

  return <div ref={container} role="img" aria-label={label} data-testid="trend-chart" style={{ height, width: '100%' }} />;
}
