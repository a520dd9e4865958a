import { Card, Col, Row, Statistic, Typography, theme } from 'antd';
import {
  CloudServerOutlined,
  GlobalOutlined,
  HomeOutlined,
  SafetyCertificateOutlined,
  SwapOutlined,
  ThunderboltOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useClaims } from '../../../entities/site/site-settings';

/** The product overview: the marketing claims (spec section 1) and the three product families. */
export function ProductOverview() {
  const { t } = useTranslation('dashboard');
  const { token } = theme.useToken();
  const figures = useClaims();
  const claims = [
    { key: 'ips', icon: <GlobalOutlined />, value: figures.residential_ips },
    { key: 'countries', icon: <ThunderboltOutlined />, value: String(figures.countries) },
    { key: 'uptime', icon: <SafetyCertificateOutlined />, value: figures.uptime },
  ];
  const products = [
    { key: 'static', icon: <HomeOutlined /> },
    { key: 'dynamic', icon: <SwapOutlined /> },
    { key: 'idc', icon: <CloudServerOutlined /> },
  ];

  return (
    <Card title={t('overview.title')}>
      <Row gutter={[16, 16]} style={{ marginBottom: 24 }}>
        {claims.map((claim) => (
          <Col key={claim.key} xs={24} sm={8}>
            <Statistic
              title={t(`claims.${claim.key}`)}
              value={claim.value}
              prefix={claim.icon}
              styles={{ content: { color: token.colorPrimaryText } }}
            />
          </Col>
        ))}
      </Row>
      <Row gutter={[16, 16]}>
        {products.map((product) => (
          <Col key={product.key} xs={24} md={8}>
            <Card
              type="inner"
              title={
                <>
                  {product.icon} {t(`products.${product.key}.name`)}
                </>
              }
              style={{ height: '100%' }}
            >
              <Typography.Paragraph style={{ marginBottom: 0 }}>
                {t(`products.${product.key}.description`)}
              </Typography.Paragraph>
            </Card>
          </Col>
        ))}
      </Row>
      <Typography.Paragraph type="secondary" style={{ marginTop: 16, marginBottom: 0 }}>
        <SwapOutlined /> {t('overview.rotation')}
      </Typography.Paragraph>
    </Card>
  );
}
