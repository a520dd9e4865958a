import { useState } from 'react';
import { Button, Card, Col, DatePicker, Flex, Row, Segmented, Statistic, Typography } from 'antd';
import { DownloadOutlined, ReloadOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { ECONOMICS_GROUPS, ECONOMICS_MAX_DAYS } from '@proxy/contract';
import { formatBytes, formatFen } from '../../../lib/format';
import { exportEconomics, useEconomics, type TEconomicsFilters } from '../api/economics';
import { EconomicsTable, Margin } from './economics-table';
import { ReconciliationCard } from './reconciliation-card';

/**
 * /admin/economics: what pools and exits carried, what they cost, what customers paid for it and the margin, per
 * UTC day, carrier, product or area (docs/economics.md); the CSV export of the same figures; and a pool's
 * reconciliation with its provider's usage report.
 */
export default function EconomicsPage() {
  const { t } = useTranslation('admin-economics');
  const [filters, setFilters] = useState<TEconomicsFilters>({ group_by: 'day' });
  const [isExporting, setIsExporting] = useState(false);
  const report = useEconomics(filters);
  const totals = report.data?.totals;

  const setRange = (range: [Dayjs | null, Dayjs | null] | null) => {
    const [from, to] = range ?? [null, null];
    setFilters({ ...filters, from: from?.format('YYYY-MM-DD'), to: to?.format('YYYY-MM-DD') });
  };

  const download = async () => {
    if (!report.data) return;
    setIsExporting(true);
    // A failure is toasted by the request layer.
    await exportEconomics(filters, report.data).catch(() => undefined);
    setIsExporting(false);
  };

  return (
    <>
      <Card
        title={t('title')}
        extra={
          <Button
            icon={<DownloadOutlined />}
            loading={isExporting}
            disabled={!report.data}
            onClick={() => void download()}
            data-testid="economics-export"
          >
            {t('export')}
          </Button>
        }
      >
        <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
        <Flex gap={8} wrap style={{ marginBottom: 16 }} role="search" aria-label={t('filters.label')}>
          <DatePicker.RangePicker
            aria-label={t('filters.range')}
            allowClear
            onChange={setRange}
            disabledDate={(day, info) =>
              Boolean(info.from && Math.abs(day.diff(info.from, 'day')) >= ECONOMICS_MAX_DAYS)
            }
          />
          <Segmented
            aria-label={t('filters.groupBy')}
            value={filters.group_by}
            onChange={(value) => setFilters({ ...filters, group_by: value })}
            options={ECONOMICS_GROUPS.map((g) => ({ value: g, label: t(`groupBy.${g}`) }))}
          />
          <Button icon={<ReloadOutlined />} loading={report.isFetching} onClick={() => void report.refetch()}>
            {t('refresh')}
          </Button>
        </Flex>
        {report.data && (
          <Typography.Paragraph type="secondary" data-testid="economics-range">
            {t('range', { from: report.data.from, to: report.data.to })}
          </Typography.Paragraph>
        )}
        <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
          <Col xs={12} md={6}>
            <Statistic title={t('totals.carried')} value={totals ? formatBytes(totals.carried_bytes) : '—'} />
          </Col>
          <Col xs={12} md={6}>
            <Statistic title={t('totals.cost')} value={totals ? formatFen(totals.cost_fen) : '—'} />
          </Col>
          <Col xs={12} md={6}>
            <Statistic
              title={t('totals.revenue')}
              value={totals ? formatFen(totals.revenue_fen) : '—'}
              suffix={
                totals && totals.sold_not_carried_fen > 0 ? (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {t('totals.soldNotCarried', { amount: formatFen(totals.sold_not_carried_fen) })}
                  </Typography.Text>
                ) : null
              }
            />
          </Col>
          <Col xs={12} md={6}>
            <Statistic
              title={t('totals.margin')}
              valueRender={() =>
                totals ? <Margin fen={totals.margin_fen} isNegative={totals.is_negative} testId="margin" /> : '—'
              }
            />
          </Col>
        </Row>
        <EconomicsTable report={report.data} isLoading={report.isFetching} />
      </Card>
      <ReconciliationCard range={{ from: filters.from, to: filters.to }} />
    </>
  );
}
