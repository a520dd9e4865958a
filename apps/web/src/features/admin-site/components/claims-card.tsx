import { Alert, Button, Card, Col, Form, Input, InputNumber, Row, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { zClaimCountries, zClaimText } from '@proxy/contract';
import { zodRule } from '../../../lib/form-rules';
import { getLanguage } from '../../../lib/i18n';
import { showSuccess } from '../../../lib/message';
import { markServerIssues } from '../../../lib/server-issues';
import { useClaimsStock, useSaveClaims, useSystemSettings, type TClaimsValues } from '../api/claims';

const FIELDS = ['claim_residential_ips', 'claim_countries', 'claim_uptime'] as const;

/** What is in stock beside the claimed number of countries, with a warning when the claim is larger. */
function StockPanel({ claimed }: { claimed: number | null | undefined }) {
  const { t } = useTranslation('admin-site');
  const stock = useClaimsStock();
  if (!stock.data) return null;
  const { countries, pools_serve_all: isServingAll } = stock.data;
  const lang = getLanguage();
  const byExits = countries.filter((c) => c.has_exits).length;
  const byPools = countries.filter((c) => c.has_pools).length;
  // A pool covering "all" serves every country: the claim cannot be checked against a list then.
  const isOverclaimed = !isServingAll && typeof claimed === 'number' && claimed > countries.length;
  return (
    <div data-testid="claims-stock">
      <Typography.Title level={5}>{t('claims.stockTitle')}</Typography.Title>
      <Typography.Paragraph data-testid="claims-stock-count">
        {t('claims.stockCount', { count: countries.length, exits: byExits, pools: byPools })}
      </Typography.Paragraph>
      {isServingAll ? <Alert type="info" showIcon style={{ marginBottom: 12 }} title={t('claims.servingAll')} /> : null}
      {isOverclaimed ? (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          data-testid="claims-overclaimed"
          title={t('claims.overclaimed', { claimed, count: countries.length })}
        />
      ) : null}
      {countries.length === 0 ? (
        <Typography.Text type="secondary">{t('claims.stockNone')}</Typography.Text>
      ) : (
        <Space size={[4, 8]} wrap>
          {countries.map((c) => (
            <Tag key={c.id} data-testid={`claims-country-${c.id}`}>
              {(lang === 'zh' ? c.name_zh : c.name_en) || c.id.toUpperCase()} ·{' '}
              {c.has_exits && c.has_pools
                ? t('claims.byBoth')
                : c.has_exits
                  ? t('claims.byExits')
                  : t('claims.byPools')}
            </Tag>
          ))}
        </Space>
      )}
    </div>
  );
}

/**
 * The marketing figures every page shows (spec section 1: residential IPs, countries, uptime), and beside them the
 * countries actually in stock, so that the claims can be kept honest (docs/operator-guide.md, "Marketing figures").
 */
export function ClaimsCard() {
  const { t } = useTranslation('admin-site');
  const settings = useSystemSettings();
  const save = useSaveClaims();
  const [form] = Form.useForm<TClaimsValues>();
  const claimed = Form.useWatch('claim_countries', form);
  const current = settings.data;

  const handleFinish = async (values: TClaimsValues) => {
    try {
      await save.mutateAsync(values);
      showSuccess(t('claims.saved'));
    } catch (error) {
      markServerIssues(form, error, FIELDS);
    }
  };

  return (
    <Card title={t('claims.title')} loading={settings.isPending} data-testid="claims-card">
      <Typography.Paragraph type="secondary">{t('claims.hint')}</Typography.Paragraph>
      {current ? (
        <Form<TClaimsValues>
          form={form}
          layout="vertical"
          name="claims"
          initialValues={{
            claim_residential_ips: current.claim_residential_ips,
            claim_countries: current.claim_countries,
            claim_uptime: current.claim_uptime,
          }}
          onFinish={(values) => void handleFinish(values)}
          data-testid="claims-form"
        >
          {/* No maxLength or min/max: a value out of bounds is refused with the reason, never silently cut. */}
          <Row gutter={16}>
            <Col xs={24} md={8}>
              <Form.Item name="claim_residential_ips" label={t('claims.ips')} rules={[zodRule(zClaimText)]}>
                <Input placeholder="32M+" />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="claim_countries" label={t('claims.countries')} rules={[zodRule(zClaimCountries)]}>
                <InputNumber style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="claim_uptime" label={t('claims.uptime')} rules={[zodRule(zClaimText)]}>
                <Input placeholder="99.9%" />
              </Form.Item>
            </Col>
          </Row>
          <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="claims-save">
            {t('claims.save')}
          </Button>
        </Form>
      ) : null}
      <div style={{ marginTop: 24 }}>
        <StockPanel claimed={claimed ?? current?.claim_countries} />
      </div>
    </Card>
  );
}
