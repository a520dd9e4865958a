import { Suspense, lazy } from 'react';
import { Skeleton } from 'antd';
import type { TTrendChartProps } from './trend-chart';

// ECharts arrives in its own chunk after the page's first paint.
const TrendChart = lazy(() => import('./trend-chart'));

/** The lazily loaded trend chart with a placeholder of the same height. */
export function ChartSlot(props: TTrendChartProps) {
  return (
    <Suspense fallback={<Skeleton.Node active style={{ width: '100%', height: props.height ?? 280 }} />}>
      <TrendChart {...props} />
    </Suspense>
  );
}
