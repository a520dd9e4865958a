import { useEffect, useRef } from 'react';
import * as echarts from 'echarts/core';
import { GaugeChart } from 'echarts/charts';
import { SVGRenderer } from 'echarts/renderers';
import { theme } from 'antd';

// Only the gauge and the SVG renderer: this chunk loads with the IP check page, never with sign-in.
// ECharts is driven directly rather than through echarts-for-react: that wrapper
// depends on React, and the build's "echarts" vendor group would then pull React
// (and so ECharts) into the entry chunk of every page, the login page included.
echarts.use([GaugeChart, SVGRenderer]);

/** Bands of the gauge, matching the server's levels (low < 30 <= medium < 60 <= high). */
const BANDS: [number, string][] = [
  [0.3, '#52c41a'],
  [0.6, '#faad14'],
  [1, '#ff4d4f'],
];

/** Risk score 0-100 as an ECharts gauge (default export, loaded lazily). */
export default function RiskGauge({ score, label }: { score: number; label: string }) {
  const { token } = theme.useToken();
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const instance = echarts.init(element, undefined, { renderer: 'svg' });
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
        series: [
          {
            type: 'gauge',
            min: 0,
            max: 100,
            splitNumber: 5,
            radius: '95%',
            axisLine: { lineStyle: { width: 14, color: BANDS } },
            pointer: { itemStyle: { color: 'auto' }, width: 5 },
            axisTick: { distance: -14, length: 6, lineStyle: { color: token.colorBgContainer, width: 1 } },
            splitLine: { distance: -14, length: 14, lineStyle: { color: token.colorBgContainer, width: 2 } },
            axisLabel: { color: token.colorTextSecondary, distance: 20, fontSize: 11 },
            title: { offsetCenter: [0, '72%'], color: token.colorTextSecondary, fontSize: 13 },
            detail: {
              valueAnimation: true,
              offsetCenter: [0, '42%'],
              fontSize: 30,
              fontWeight: 600,
              color: 'inherit',
              formatter: '{value}',
            },
            data: [{ value: score, name: label }],
          },
        ],
      },
      { notMerge: true },
    );
  }, [score, label, token.colorBgContainer, token.colorTextSecondary]);

  return (
    <div ref={container} role="img" aria-label={`${label}: ${score}/100`} style={{ height: 240, width: '100%' }} />
  );
}
