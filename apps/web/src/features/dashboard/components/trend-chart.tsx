import { useLayoutEffect, useMemo, useRef, useState, type MouseEvent } from 'react';
import { theme } from 'antd';

/*
 * The dashboard's trend charts drawn as plain SVG: bars and lines over a
 * category axis, a legend that hides and shows a series, a tooltip per day and
 * a value axis with round steps. ECharts drew them before; it cost ~185 KB of
 * gzipped JavaScript on the home page for two small charts. The look follows
 * the ECharts version (grid lines, rounded bar tops, a light area under a line,
 * dots while there are at most 14 days) and the antd theme.
 */

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

const LEGEND_HEIGHT = 32;
const FONT_SIZE = 12;
const BAR_MAX_WIDTH = 24;
const TICK_COUNT = 5;

/** 1, 2 or 5 times a power of ten, at least `raw`. */
function roundStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  return (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * power;
}

/** The value axis: round steps of at least `minInterval` from below the lowest to above the highest value (0 included). */
export function valueTicks(values: number[], minInterval: number): number[] {
  const low = Math.min(0, ...values);
  const high = Math.max(0, ...values);
  const span = high - low || minInterval * TICK_COUNT || 1;
  const step = Math.max(roundStep(span / TICK_COUNT), minInterval);
  const first = Math.floor(low / step);
  const last = Math.max(Math.ceil(high / step), first + 1);
  const ticks: number[] = [];
  for (let k = first; k <= last; k += 1) ticks.push(Number((k * step).toPrecision(12)));
  return ticks;
}

/** Width in pixels a label takes, roughly (no layout in tests, and no measuring pass needed). */
const textWidth = (text: string) =>
  [...text].reduce((sum, ch) => sum + (ch.charCodeAt(0) > 0xff ? FONT_SIZE : FONT_SIZE * 0.6), 0);

/** Path of a bar with rounded top corners (radius 3, or less on a short bar); a negative bar rounds its bottom. */
function barPath(x: number, width: number, zeroY: number, valueY: number): string {
  const top = Math.min(zeroY, valueY);
  const height = Math.abs(zeroY - valueY);
  const r = Math.min(3, width / 2, height);
  if (valueY <= zeroY) {
    return `M${x},${zeroY}V${top + r}Q${x},${top} ${x + r},${top}H${x + width - r}Q${x + width},${top} ${x + width},${top + r}V${zeroY}Z`;
  }
  const bottom = top + height;
  return `M${x},${top}V${bottom - r}Q${x},${bottom} ${x + r},${bottom}H${x + width - r}Q${x + width},${bottom} ${x + width},${bottom - r}V${top}Z`;
}

/** A time series as an SVG line/bar chart that follows the antd theme (default export, loaded lazily). */
export default function TrendChart({
  categories,
  series,
  formatValue,
  label,
  height = 280,
  minInterval = 0.01,
}: TTrendChartProps) {
  const { token } = theme.useToken();
  const container = useRef<HTMLDivElement>(null);
  // jsdom and hidden tabs have no layout: the chart is then drawn 600 pixels wide.
  const [width, setWidth] = useState(600);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set());
  const [active, setActive] = useState<number | null>(null);

  useLayoutEffect(() => {
    const element = container.current;
    if (!element) return;
    const measure = () => {
      if (element.clientWidth > 0) setWidth(element.clientWidth);
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const format = useMemo(() => formatValue ?? ((value: number) => String(value)), [formatValue]);
  const shown = series.filter((s) => !hidden.has(s.name));
  const ticks = valueTicks(
    shown.flatMap((s) => s.data),
    minInterval,
  );
  const tickLabels = ticks.map(format);
  const hasBars = series.some((s) => s.type === 'bar');

  // The plot area: y labels on the left, x labels below, the legend above.
  const left = 8 + Math.max(...tickLabels.map(textWidth)) + 8;
  const right = width - 16;
  const top = LEGEND_HEIGHT + 8;
  const bottom = height - 8 - FONT_SIZE - 8;
  const plotWidth = Math.max(right - left, 1);
  const count = categories.length;
  const band = count ? plotWidth / count : plotWidth;
  // With bars each day is a band and points sit in its middle; lines alone run edge to edge (ECharts' boundaryGap).
  const xOf = (i: number) => (hasBars || count <= 1 ? left + band * (i + 0.5) : left + (plotWidth * i) / (count - 1));
  const lowTick = ticks[0];
  const highTick = ticks[ticks.length - 1];
  const yOf = (value: number) => bottom - ((value - lowTick) / (highTick - lowTick)) * (bottom - top);
  const zeroY = yOf(Math.min(Math.max(0, lowTick), highTick));

  const barSeries = shown.filter((s) => s.type === 'bar');
  const barWidth = barSeries.length ? Math.min(BAR_MAX_WIDTH, (band * 0.6) / barSeries.length) : 0;
  const barGap = barSeries.length > 1 ? Math.min(4, barWidth * 0.3) : 0;
  const barGroupWidth = barSeries.length * barWidth + (barSeries.length - 1) * barGap;

  // Every n-th day is labelled so the labels do not overlap.
  const labelEvery = Math.max(
    1,
    Math.ceil(
      (Math.max(0, ...categories.map(textWidth)) + 8) /
        Math.max(hasBars ? band : plotWidth / Math.max(count - 1, 1), 1),
    ),
  );

  const onMove = (event: MouseEvent<SVGRectElement>) => {
    if (!count) return;
    const box = event.currentTarget.getBoundingClientRect();
    const x = event.clientX - box.left + left;
    const index =
      hasBars || count <= 1 ? Math.floor((x - left) / band) : Math.round(((x - left) / plotWidth) * (count - 1));
    setActive(Math.min(Math.max(index, 0), count - 1));
  };

  const toggle = (name: string) =>
    setHidden((current) => {
      const next = new Set(current);
      if (next.has(name)) next.delete(name);
      else next.add(name);
      return next;
    });

  const textStyle = { fontFamily: token.fontFamily, fontSize: FONT_SIZE };
  const tooltipLeft = active === null ? 0 : xOf(active) + 12;

  return (
    <div ref={container} data-testid="trend-chart" style={{ height, width: '100%', position: 'relative' }}>
      <div
        style={{
          position: 'absolute',
          top: 0,
          left: 0,
          right: 0,
          display: 'flex',
          justifyContent: 'center',
          gap: 16,
          ...textStyle,
        }}
      >
        {series.map((s) => (
          <button
            key={s.name}
            type="button"
            aria-pressed={!hidden.has(s.name)}
            onClick={() => toggle(s.name)}
            style={{
              display: 'inline-flex',
              alignItems: 'center',
              gap: 6,
              padding: '4px 0',
              border: 0,
              background: 'none',
              cursor: 'pointer',
              font: 'inherit',
              color: hidden.has(s.name) ? token.colorTextDisabled : token.colorTextSecondary,
            }}
          >
            <span
              aria-hidden
              style={{
                display: 'inline-block',
                width: s.type === 'bar' ? 14 : 20,
                height: s.type === 'bar' ? 10 : 3,
                borderRadius: 2,
                background: hidden.has(s.name) ? token.colorTextDisabled : s.color,
              }}
            />
            {s.name}
          </button>
        ))}
      </div>
      <svg width={width} height={height} role="img" aria-label={label} style={{ display: 'block', ...textStyle }}>
        <g data-axis="y">
          {ticks.map((tick, i) => (
            <g key={tick}>
              <line x1={left} x2={right} y1={yOf(tick)} y2={yOf(tick)} stroke={token.colorBorderSecondary} />
              <text
                x={left - 8}
                y={yOf(tick)}
                dy="0.35em"
                textAnchor="end"
                fill={token.colorTextSecondary}
                data-value={tick}
              >
                {tickLabels[i]}
              </text>
            </g>
          ))}
        </g>
        <g data-axis="x">
          <line x1={left} x2={right} y1={zeroY} y2={zeroY} stroke={token.colorBorder} />
          {categories.map((category, i) =>
            i % labelEvery === 0 ? (
              <text
                key={category}
                x={xOf(i)}
                y={bottom + 8 + FONT_SIZE}
                textAnchor="middle"
                fill={token.colorTextSecondary}
              >
                {category}
              </text>
            ) : null,
          )}
        </g>
        {active !== null && (
          <line
            x1={xOf(active)}
            x2={xOf(active)}
            y1={top}
            y2={bottom}
            stroke={token.colorBorder}
            strokeDasharray="4 3"
          />
        )}
        {series.map((s) => {
          if (hidden.has(s.name)) return null;
          if (s.type === 'bar') {
            const slot = barSeries.indexOf(s);
            return (
              <g key={s.name} data-series={s.name} data-type="bar" fill={s.color}>
                {s.data.map((value, i) => (
                  <path
                    key={i}
                    data-value={value}
                    d={barPath(xOf(i) - barGroupWidth / 2 + slot * (barWidth + barGap), barWidth, zeroY, yOf(value))}
                  />
                ))}
              </g>
            );
          }
          const points = s.data.map((value, i) => `${xOf(i)},${yOf(value)}`);
          return (
            <g key={s.name} data-series={s.name} data-type="line">
              {points.length > 1 && (
                <path
                  d={`M${points.join('L')}L${xOf(s.data.length - 1)},${zeroY}L${xOf(0)},${zeroY}Z`}
                  fill={s.color}
                  fillOpacity={0.12}
                  stroke="none"
                />
              )}
              <polyline points={points.join(' ')} fill="none" stroke={s.color} strokeWidth={2} strokeLinejoin="round" />
              {s.data.map((value, i) => (
                <circle
                  key={i}
                  data-value={value}
                  cx={xOf(i)}
                  cy={yOf(value)}
                  r={count <= 14 || active === i ? 3 : 0}
                  fill={token.colorBgContainer}
                  stroke={s.color}
                  strokeWidth={2}
                />
              ))}
            </g>
          );
        })}
        <rect
          x={left}
          y={top}
          width={plotWidth}
          height={Math.max(bottom - top, 1)}
          fill="transparent"
          onMouseMove={onMove}
          onMouseLeave={() => setActive(null)}
        />
      </svg>
      {active !== null && (
        <div
          role="presentation"
          style={{
            position: 'absolute',
            top: top,
            ...(tooltipLeft + 180 > width ? { right: width - xOf(active) + 12 } : { left: tooltipLeft }),
            pointerEvents: 'none',
            padding: '8px 10px',
            borderRadius: 4,
            border: `1px solid ${token.colorBorderSecondary}`,
            background: token.colorBgElevated,
            color: token.colorText,
            boxShadow: token.boxShadowSecondary,
            whiteSpace: 'nowrap',
            ...textStyle,
          }}
        >
          <div style={{ marginBottom: 4 }}>{categories[active]}</div>
          {shown.map((s) => (
            <div key={s.name} style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
              <span aria-hidden style={{ width: 8, height: 8, borderRadius: '50%', background: s.color }} />
              <span>{s.name}</span>
              <strong style={{ marginLeft: 'auto', paddingLeft: 16 }}>{format(s.data[active] ?? 0)}</strong>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
