import { useCallback, useMemo, useState } from 'react';
import { Alert, Button, Card, Empty, Statistic, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { bytesIn, formatBytes, formatMonthDay, pickByteUnit } from '../../../lib/format';
import type { TPeriodDays } from '../api/statistics-amount';
import { useSessionTraffic } from '../api/session-traffic';
import { ChartSlot } from './chart-slot';
import { PeriodSwitch } from './period-switch';

const TRAFFIC_COLOR = '#13c2c2';

/** Charged traffic of all the user's proxies per day (GET /token/session/traffic), and the bytes not charged. */
export function TrafficChartCard() {
  const { t } = useTranslation('dashboard');
  const [days, setDays] = useState<TPeriodDays>(7);
  const traffic = useSessionTraffic(days);

  const points = useMemo(() => traffic.data?.points ?? [], [traffic.data]);
  const unit = pickByteUnit(Math.max(0, ...points.map((p) => p.bytes)));
  const formatValue = useCallback((value: number) => `${value} ${unit}`, [unit]);
  const chart = useMemo(
    () => ({
      categories: points.map((p) => formatMonthDay(p.at)),
      series: [
        {
          name: t('charts.traffic'),
          type: 'line' as const,
          data: points.map((p) => bytesIn(p.bytes, unit)),
          color: TRAFFIC_COLOR,
        },
      ],
    }),
    [points, unit, t],
  );

  return (
    <Card
      title={t('charts.trafficTitle')}
      extra={<PeriodSwitch value={days} onChange={setDays} label={t('charts.trafficTitle')} />}
      style={{ height: '100%' }}
    >
      {traffic.isError ? (
        <Alert
          type="error"
          showIcon
          title={t('errors.traffic')}
          action={
            <Button size="small" onClick={() => void traffic.refetch()}>
              {t('errors.retry')}
            </Button>
          }
        />
      ) : (
        <>
          <Statistic
            title={t('charts.totalTraffic', { count: days })}
            value={formatBytes(traffic.data?.total_bytes ?? 0)}
            loading={traffic.isPending}
            style={{ marginBottom: 8 }}
          />
          {(traffic.data?.total_uncharged_bytes ?? 0) > 0 && (
            <Typography.Paragraph type="secondary" style={{ fontSize: 12 }} data-testid="traffic-not-charged">
              {t('charts.notCharged', { bytes: formatBytes(traffic.data?.total_uncharged_bytes ?? 0) })}
            </Typography.Paragraph>
          )}
          {!traffic.isPending && points.every((p) => p.bytes === 0) ? (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={t('charts.trafficEmpty', { count: days })}
              data-testid="traffic-empty"
            />
          ) : (
            // Bytes are whole: below 1 KB the axis steps by whole bytes, never "0.2 B".
            <ChartSlot
              categories={chart.categories}
              series={chart.series}
              formatValue={formatValue}
              minInterval={unit === 'B' ? 1 : undefined}
              label={t('charts.trafficTitle')}
            />
          )}
        </>
      )}
    </Card>
  );
}
