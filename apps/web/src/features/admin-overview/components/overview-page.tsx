import { Suspense, lazy, useCallback, useMemo, useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Col,
  Empty,
  Flex,
  Row,
  Segmented,
  Skeleton,
  Statistic,
  Table,
  Typography,
  theme,
  type TableColumnsType,
} from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatYuan, type TOverview } from '@proxy/contract';
import { bytesIn, formatBytes, formatMonthDay, pickByteUnit } from '../../../lib/format';
import { OVERVIEW_WINDOWS, useAdminOverview, type TOverviewWindow } from '../api/overview';
import { MarginCard } from './margin-card';
import type { TOverviewChartProps } from './overview-chart';

// ECharts arrives in its own chunk after the page's first paint.
const OverviewChart = lazy(() => import('./overview-chart'));

function ChartSlot(props: TOverviewChartProps) {
  return (
    <Suspense fallback={<Skeleton.Node active style={{ width: '100%', height: 280 }} />}>
      <OverviewChart {...props} />
    </Suspense>
  );
}

const RECHARGE_COLOR = '#1677ff';
const SPEND_COLOR = '#fa8c16';
const TRAFFIC_COLOR = '#13c2c2';

type TProductRow = TOverview['active_proxies'][number];
type TStockRow = TOverview['stock'][number];

/** A queue's size with a link to the screen that works it off. */
function QueueCard(props: { title: string; value: number; to: string; linkText: string; testId: string }) {
  const { token } = theme.useToken();
  return (
    <Card size="small" style={{ height: '100%' }}>
      <Statistic
        title={props.title}
        value={props.value}
        styles={{ content: props.value > 0 ? { color: token.colorWarning } : undefined }}
      />
      <Link to={props.to} data-testid={props.testId}>
        {props.linkText}
      </Link>
    </Card>
  );
}

/** /admin/overview: money and traffic per day, live proxies by product, free stock, and the queues. */
export default function OverviewPage() {
  const { t } = useTranslation('admin-overview');
  const [days, setDays] = useState<TOverviewWindow>(30);
  const overview = useAdminOverview(days);
  const data = overview.data;

  const totals = useMemo(() => {
    const money = data?.money ?? [];
    return {
      rechargeCount: money.reduce((sum, d) => sum + d.recharge_count, 0),
      // Summed in fen: yuan with two decimals do not add exactly as floats.
      recharge: money.reduce((sum, d) => sum + Math.round(d.recharge_amount * 100), 0) / 100,
      spend: money.reduce((sum, d) => sum + Math.round(d.spend_amount * 100), 0) / 100,
      bytes: (data?.traffic ?? []).reduce((sum, d) => sum + d.bytes, 0),
    };
  }, [data]);

  const moneyChart = useMemo(
    () => ({
      categories: (data?.money ?? []).map((d) => formatMonthDay(d.day)),
      series: [
        {
          name: t('charts.recharge'),
          type: 'bar' as const,
          data: (data?.money ?? []).map((d) => d.recharge_amount),
          color: RECHARGE_COLOR,
        },
        {
          name: t('charts.spend'),
          type: 'line' as const,
          data: (data?.money ?? []).map((d) => d.spend_amount),
          color: SPEND_COLOR,
        },
      ],
    }),
    [data, t],
  );
  const unit = pickByteUnit(Math.max(0, ...(data?.traffic ?? []).map((d) => d.bytes)));
  const trafficChart = useMemo(
    () => ({
      categories: (data?.traffic ?? []).map((d) => formatMonthDay(d.day)),
      series: [
        {
          name: t('charts.traffic'),
          type: 'bar' as const,
          data: (data?.traffic ?? []).map((d) => bytesIn(d.bytes, unit)),
          color: TRAFFIC_COLOR,
        },
      ],
    }),
    [data, unit, t],
  );
  const formatMoney = useCallback((value: number) => formatYuan(value), []);
  const formatTraffic = useCallback((value: number) => `${value} ${unit}`, [unit]);

  const productColumns: TableColumnsType<TProductRow> = [
    { title: t('products.category'), dataIndex: 'category', render: (v: string) => t(`categories.${v}`) },
    { title: t('products.product'), dataIndex: 'product', render: (v: string) => t(`productNames.${v}`) },
    { title: t('products.billing'), dataIndex: 'billing', render: (v: string) => t(`billings.${v}`) },
    { title: t('products.count'), dataIndex: 'count', align: 'right' },
  ];
  const stockColumns: TableColumnsType<TStockRow> = [
    { title: t('stock.country'), dataIndex: 'country', render: (v: string) => v.toUpperCase() },
    { title: t('stock.kind'), dataIndex: 'kind', render: (v: string) => t(`kinds.${v}`) },
    {
      title: t('stock.free'),
      dataIndex: 'free',
      align: 'right',
      render: (v: number) => (v === 0 ? <Typography.Text type="danger">{v}</Typography.Text> : v),
    },
    { title: t('stock.total'), dataIndex: 'total', align: 'right' },
  ];

  return (
    <Flex vertical gap={16}>
      <Card
        title={t('title')}
        extra={
          <Flex gap={8} align="center">
            <Segmented<TOverviewWindow>
              aria-label={t('window')}
              value={days}
              onChange={setDays}
              options={OVERVIEW_WINDOWS.map((value) => ({ value, label: t('days', { count: value }) }))}
            />
            <Button icon={<ReloadOutlined />} loading={overview.isFetching} onClick={() => void overview.refetch()}>
              {t('refresh')}
            </Button>
          </Flex>
        }
      >
        {overview.isError && !data ? (
          <Alert
            type="error"
            showIcon
            title={t('errors.load')}
            action={
              <Button size="small" onClick={() => void overview.refetch()}>
                {t('retry')}
              </Button>
            }
          />
        ) : (
          <Row gutter={[16, 16]} data-testid="overview-cards">
            <Col xs={24} sm={12} xl={4}>
              <Card size="small" style={{ height: '100%' }}>
                <Statistic
                  title={t('cards.recharge', { count: days })}
                  value={formatYuan(totals.recharge)}
                  loading={!data}
                />
                <Typography.Text type="secondary">
                  {t('cards.rechargeCount', { count: totals.rechargeCount })}
                </Typography.Text>
              </Card>
            </Col>
            <Col xs={24} sm={12} xl={4}>
              <Card size="small" style={{ height: '100%' }}>
                <Statistic title={t('cards.spend', { count: days })} value={formatYuan(totals.spend)} loading={!data} />
              </Card>
            </Col>
            <Col xs={24} sm={12} xl={4}>
              <Card size="small" style={{ height: '100%' }}>
                <Statistic
                  title={t('cards.traffic', { count: days })}
                  value={formatBytes(totals.bytes)}
                  loading={!data}
                />
              </Card>
            </Col>
            <Col xs={24} sm={12} xl={4}>
              <QueueCard
                title={t('cards.supply')}
                value={data?.pending_supply ?? 0}
                to="/admin/supply"
                linkText={t('cards.open')}
                testId="overview-supply"
              />
            </Col>
            <Col xs={24} sm={12} xl={4}>
              <QueueCard
                title={t('cards.workOrders')}
                value={data?.open_work_orders ?? 0}
                to="/admin/work-orders"
                linkText={t('cards.open')}
                testId="overview-work-orders"
              />
            </Col>
            <Col xs={24} sm={12} xl={4}>
              <QueueCard
                title={t('cards.unmatched')}
                value={data?.unmatched_payments ?? 0}
                to="/admin/payments?tab=unmatched"
                linkText={t('cards.open')}
                testId="overview-unmatched"
              />
            </Col>
          </Row>
        )}
        <div style={{ marginTop: 16 }}>
          <MarginCard />
        </div>
      </Card>
      {data && (
        <Row gutter={[16, 16]}>
          <Col xs={24} xl={12}>
            <Card title={t('charts.moneyTitle')}>
              <ChartSlot
                {...moneyChart}
                formatValue={formatMoney}
                label={t('charts.moneyTitle')}
                testId="overview-money-chart"
              />
            </Card>
          </Col>
          <Col xs={24} xl={12}>
            <Card title={t('charts.trafficTitle')}>
              <ChartSlot
                {...trafficChart}
                formatValue={formatTraffic}
                label={t('charts.trafficTitle')}
                testId="overview-traffic-chart"
              />
            </Card>
          </Col>
          <Col xs={24} xl={12}>
            <Card title={t('products.title')}>
              <Table<TProductRow>
                rowKey={(r) => `${r.category}-${r.product}-${r.billing}`}
                size="small"
                data-testid="overview-products"
                scroll={{ x: 'max-content' }}
                columns={productColumns}
                dataSource={data.active_proxies}
                pagination={false}
                locale={{ emptyText: <Empty description={t('products.empty')} /> }}
              />
            </Card>
          </Col>
          <Col xs={24} xl={12}>
            <Card title={t('stock.title')}>
              <Table<TStockRow>
                rowKey={(r) => `${r.country}-${r.kind}`}
                size="small"
                data-testid="overview-stock"
                scroll={{ x: 'max-content' }}
                columns={stockColumns}
                dataSource={data.stock}
                pagination={data.stock.length > 20 ? { pageSize: 20 } : false}
                locale={{ emptyText: <Empty description={t('stock.empty')} /> }}
              />
            </Card>
          </Col>
        </Row>
      )}
    </Flex>
  );
}
