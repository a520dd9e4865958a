import { Alert, Col, Flex, Form, Input, InputNumber, Radio, Row, Switch, Typography, type FormInstance } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  PROXY_DAYS_MAX,
  PROXY_NETWORKS,
  PROXY_QUANTITY_MAX,
  PROXY_REMARK_MAX,
  PROXY_TRAFFIC_MAX_GB,
  TRAFFIC_MIN_GB,
  ZBuyIpBody,
  zProxyDays,
  zTrafficGb,
} from '@proxy/contract';
import { AreaPicker } from '../../../entities/areas/area-picker';
import { useFairUse } from '../../../entities/pricing/fair-use';
import { zodRule } from '../../../lib/form-rules';
import type { TPriceQuote } from '../hooks/use-price-quote';
import { INITIAL_PURCHASE, type TPurchaseValues } from '../hooks/use-purchase';
import type { TScreenConfig } from '../utils/screens';
import { PricePreviewCard } from './price-preview-card';
import { StockNotice } from './stock-notice';

/** Where to switch to the other product of the residential screens. */
const OTHER_PRODUCT_PATH = { static: '/proxy/isp/variable', dynamic: '/proxy/isp/static' } as const;

/**
 * The purchase form: product fixed by the screen, billing, network, area,
 * quantity, days or GB, auto-renew and remark, then the live price.
 */
export function PurchaseForm(props: {
  screen: TScreenConfig;
  form: FormInstance<TPurchaseValues>;
  quote: TPriceQuote;
  onFinish: (values: TPurchaseValues) => void;
  /** The user follows the link to the other product. */
  onLeave: () => void;
}) {
  const { screen, quote } = props;
  const { t } = useTranslation('proxies');
  const isTraffic = quote.billing === 'traffic';
  // The areas this product and billing can be bought in (upstream pools serve dynamic traffic proxies too).
  const offer = { product: screen.product, billing: quote.billing };
  // An IP-billed dynamic proxy includes the operator's fair-use traffic when one is set (docs/operator-guide.md).
  const isIpDynamic = screen.product === 'dynamic' && quote.billing === 'ip';
  const fairUse = useFairUse(isIpDynamic);
  const fairUseGb = isIpDynamic ? (fairUse.data?.ip_dynamic_gb_per_day ?? 0) : 0;

  return (
    <Form<TPurchaseValues>
      form={props.form}
      layout="vertical"
      initialValues={INITIAL_PURCHASE}
      onFinish={props.onFinish}
    >
      <Form.Item label={t('buy.product')}>
        <Flex align="center" gap={8} wrap>
          <Typography.Text strong>{t(`screens.${screen.key}.product`)}</Typography.Text>
          {screen.category === 'idc' ? (
            <Typography.Text type="secondary">{t('buy.idcStaticOnly')}</Typography.Text>
          ) : (
            <Link to={OTHER_PRODUCT_PATH[screen.product]} onClick={props.onLeave}>
              {t(`buy.switchTo.${screen.product === 'static' ? 'dynamic' : 'static'}`)}
            </Link>
          )}
        </Flex>
      </Form.Item>
      <Row gutter={12}>
        <Col xs={24} sm={12}>
          <Form.Item name="billing" label={t('buy.billing')}>
            <Radio.Group
              optionType="button"
              buttonStyle="solid"
              options={[
                { value: 'ip', label: t('billing.ip') },
                { value: 'traffic', label: t('billing.traffic') },
              ]}
            />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="network" label={t('buy.network')}>
            <Radio.Group optionType="button" options={PROXY_NETWORKS.map((n) => ({ value: n, label: n }))} />
          </Form.Item>
        </Col>
      </Row>
      <StockNotice category={screen.category} offer={offer} onLeave={props.onLeave} />
      <AreaPicker category={screen.category} offer={offer} isCountryRequired />
      <Row gutter={12}>
        <Col xs={24} sm={isTraffic ? 12 : 8}>
          {/* No min/max/precision on these inputs: a value out of bounds is refused with the reason, never silently changed. */}
          <Form.Item
            name="quantity"
            label={t('buy.quantity')}
            rules={[zodRule(ZBuyIpBody.shape.quantity)]}
            extra={t('buy.quantityHint', { max: PROXY_QUANTITY_MAX })}
          >
            <InputNumber style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        {isTraffic ? (
          <Col xs={24} sm={12}>
            <Form.Item
              name="traffic_gb"
              label={t('buy.trafficGb')}
              rules={[zodRule(zTrafficGb)]}
              extra={t('buy.trafficHint', { min: TRAFFIC_MIN_GB, max: PROXY_TRAFFIC_MAX_GB })}
            >
              <InputNumber step={0.1} suffix="GB" style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        ) : (
          <>
            <Col xs={24} sm={8}>
              <Form.Item
                name="days"
                label={t('buy.days')}
                rules={[zodRule(zProxyDays)]}
                extra={t('buy.daysHint', { max: PROXY_DAYS_MAX })}
              >
                <InputNumber suffix={t('buy.daysUnit')} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col xs={24} sm={8}>
              <Form.Item
                name="auto_renew"
                label={t('buy.autoRenew')}
                valuePropName="checked"
                tooltip={t('buy.autoRenewHelp')}
              >
                <Switch />
              </Form.Item>
            </Col>
          </>
        )}
      </Row>
      {fairUseGb > 0 && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          title={t('buy.fairUse', { gb: fairUseGb })}
          description={t('buy.fairUseHint', { gb: fairUseGb })}
        />
      )}
      <Form.Item name="remark" label={t('buy.remark')}>
        <Input maxLength={PROXY_REMARK_MAX} showCount placeholder={t('buy.remarkPlaceholder')} />
      </Form.Item>
      {quote.hasCatalogueFailed && (
        <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={t('price.catalogueFailed')} />
      )}
      <PricePreviewCard
        preview={quote.preview}
        billing={quote.billing}
        quantity={quote.quantity}
        balanceFen={quote.balanceFen}
        isLoadingPrices={quote.isLoadingPrices}
        onTopUp={props.onLeave}
      />
    </Form>
  );
}
