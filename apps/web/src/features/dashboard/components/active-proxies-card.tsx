import type { ReactNode } from 'react';
import { Alert, Button, Card, Col, Row, Statistic, theme } from 'antd';
import { CloudServerOutlined, HomeOutlined, SwapOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useActiveProxyCounts, type TActiveProxyCounts } from '../api/active-proxy-counts';

const KINDS: { key: keyof TActiveProxyCounts; path: string; icon: ReactNode }[] = [
  { key: 'dynamic', path: '/proxy/isp/variable', icon: <SwapOutlined /> },
  { key: 'static', path: '/proxy/isp/static', icon: <HomeOutlined /> },
  { key: 'idc', path: '/proxy/idc/list', icon: <CloudServerOutlined /> },
];

/** Enabled proxies by kind, each linking to its list. */
export function ActiveProxiesCard() {
  const { t } = useTranslation('dashboard');
  const { token } = theme.useToken();
  const counts = useActiveProxyCounts();
  return (
    <Card title={t('active.title')}>
      {counts.isError ? (
        <Alert
          type="error"
          showIcon
          title={t('errors.counts')}
          action={
            <Button size="small" onClick={() => void counts.refetch()}>
              {t('errors.retry')}
            </Button>
          }
        />
      ) : (
        <Row gutter={[16, 16]}>
          {KINDS.map((kind) => (
            <Col key={kind.key} xs={24} sm={8}>
              {/* Named by its card: the kind and its count, as shown. */}
              <Link to={kind.path} style={{ display: 'block' }}>
                <Card type="inner" hoverable size="small">
                  <Statistic
                    title={t(`active.${kind.key}`)}
                    value={counts.data?.[kind.key] ?? 0}
                    loading={counts.isPending}
                    prefix={kind.icon}
                    styles={{ content: { color: token.colorPrimaryText } }}
                    data-testid={`active-${kind.key}`}
                  />
                </Card>
              </Link>
            </Col>
          ))}
        </Row>
      )}
    </Card>
  );
}
