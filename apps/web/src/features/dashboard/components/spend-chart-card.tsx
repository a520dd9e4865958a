import { useCallback, useMemo, useState } from 'react';
import { Alert, Button, Card, Flex, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatYuan } from '@proxy/contract';
import { formatMonthDay } from '../../../lib/format';
import { useStatisticsAmount, type TPeriodDays } from '../api/statistics-amount';
import { ChartSlot } from './chart-slot';
import { PeriodSwitch } from './period-switch';

const SPEND_COLOR = '#0059ff';
const RECHARGE_COLOR = '#52c41a';

/** Spend and recharge per day over 7, 30 or 90 days (GET /user/statistics/amount). */
export function SpendChartCard() {
  const { t } = useTranslation('dashboard');
  const [days, setDays] = useState<TPeriodDays>(30);
  const amount = useStatisticsAmount(days);
  const formatValue = useCallback((value: number) => formatYuan(value), []);

  const chart = useMemo(() => {
    const points = amount.data?.points ?? [];
    return {
      categories: points.map((p) => formatMonthDay(p.date)),
      series: [
        { name: t('charts.spend'), type: 'bar' as const, data: points.map((p) => p.spend), color: SPEND_COLOR },
        {
          name: t('charts.recharge'),
          type: 'line' as const,
          data: points.map((p) => p.recharge),
          color: RECHARGE_COLOR,
        },
      ],
    };
  }, [amount.data, t]);

  return (
    <Card
      title={t('charts.spendTitle')}
      extra={<PeriodSwitch value={days} onChange={setDays} label={t('charts.spendTitle')} />}
      style={{ height: '100%' }}
    >
      {amount.isError ? (
        <Alert
          type="error"
          showIcon
          title={t('errors.spend')}
          action={
            <Button size="small" onClick={() => void amount.refetch()}>
              {t('errors.retry')}
            </Button>
          }
        />
      ) : (
        <>
          <Flex gap={32} style={{ marginBottom: 8 }}>
            <Statistic
              title={t('charts.totalSpend', { count: days })}
              value={formatYuan(amount.data?.total_spend ?? 0)}
              loading={amount.isPending}
            />
            <Statistic
              title={t('charts.totalRecharge', { count: days })}
              value={formatYuan(amount.data?.total_recharge ?? 0)}
              loading={amount.isPending}
            />
          </Flex>
          <ChartSlot
            categories={chart.categories}
            series={chart.series}
            formatValue={formatValue}
            label={t('charts.spendTitle')}
          />
        </>
      )}
    </Card>
  );
}
