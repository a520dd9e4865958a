import { Card, Col, Row, Statistic, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TEconomicsSummary } from '@proxy/contract';
import { formatFen } from '../../../lib/format';
import { useEconomicsSummary } from '../api/economics-summary';

type TSpan = TEconomicsSummary['today'];

function MarginFigure({ title, span, testId }: { title: string; span: TSpan | undefined; testId: string }) {
  const { t } = useTranslation('admin-overview');
  const { token } = theme.useToken();
  return (
    <div data-testid={testId}>
      <Statistic
        title={title}
        value={span ? formatFen(span.margin_fen) : '—'}
        styles={{ content: span?.is_negative ? { color: token.colorError } : undefined }}
      />
      {span && (
        <Typography.Text type="secondary">
          {t('margin.detail', { revenue: formatFen(span.revenue_fen), cost: formatFen(span.cost_fen) })}
        </Typography.Text>
      )}
    </div>
  );
}

/** The margin of pools and exits at a glance (today, last 30 days), linking to the economics screen. */
export function MarginCard() {
  const { t } = useTranslation('admin-overview');
  const summary = useEconomicsSummary();
  return (
    <Card
      size="small"
      title={t('margin.title')}
      extra={
        <Link to="/admin/economics" data-testid="overview-economics">
          {t('margin.open')}
        </Link>
      }
      loading={summary.isPending && !summary.isError}
    >
      <Row gutter={[16, 16]}>
        <Col xs={24} sm={12}>
          <MarginFigure title={t('margin.today')} span={summary.data?.today} testId="margin-today" />
        </Col>
        <Col xs={24} sm={12}>
          <MarginFigure title={t('margin.month')} span={summary.data?.last_30_days} testId="margin-month" />
        </Col>
      </Row>
    </Card>
  );
}
