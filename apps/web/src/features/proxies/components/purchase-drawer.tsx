import { useMemo, useRef, useState } from 'react';
import { Alert, Button, Col, Drawer, Flex, Form, Input, InputNumber, Radio, Row, Switch, Typography } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  PROXY_DAYS_MAX,
  PROXY_NETWORKS,
  PROXY_QUANTITY_MAX,
  PROXY_REMARK_MAX,
  TRAFFIC_MIN_GB,
  ZBuyIpBody,
  formatFen,
  zProxyDays,
  zTrafficGb,
  type TBuyResult,
  type TProxyNetwork,
} from '@proxy/contract';
import { AreaPicker } from '../../../entities/areas/area-picker';
import { usePriceCatalogue } from '../../../entities/prices/price-catalogue';
import { useUserInfo } from '../../../entities/user/user-info';
import { zodRule } from '../../../lib/form-rules';
import { showSuccess } from '../../../lib/message';
import { useBuyProxies, type TBuyRequest } from '../api/buy-proxies';
import { createIdempotencyKey } from '../utils/idempotency-key';
import { previewPrice, yuanNumberToFen } from '../utils/price-preview';
import type { TBilling, TScreenConfig } from '../utils/screens';
import { PricePreviewCard } from './price-preview-card';
import { PurchaseResult } from './purchase-result';

/** Fields of the purchase form. */
type TPurchaseValues = {
  billing: TBilling;
  country_id?: string;
  state_id?: string;
  city_id?: string;
  network: TProxyNetwork;
  quantity: number | null;
  traffic_gb: number | null;
  days: number | null;
  auto_renew: boolean;
  remark?: string;
};

const INITIAL_VALUES: TPurchaseValues = {
  billing: 'ip',
  network: 'HTTP',
  quantity: 1,
  traffic_gb: 1,
  days: 1,
  auto_renew: false,
};

/** Where to switch to the other product of the residential screens. */
const OTHER_PRODUCT_PATH = { static: '/proxy/isp/variable', dynamic: '/proxy/isp/static' } as const;

/** The request the form values make (undefined parts left out). */
function toRequest(values: TPurchaseValues): TBuyRequest {
  const common = {
    network: values.network,
    country_id: values.country_id ?? '',
    state_id: values.state_id || undefined,
    city_id: values.city_id || undefined,
    quantity: values.quantity ?? 0,
    remark: values.remark?.trim() || undefined,
  };
  return values.billing === 'traffic'
    ? { billing: 'traffic', body: { ...common, traffic_gb: values.traffic_gb ?? 0 } }
    : { billing: 'ip', body: { ...common, days: values.days ?? 0, auto_renew: values.auto_renew } };
}

/**
 * "Buy proxies": product fixed by the screen, billing, area cascade, network,
 * quantity, days or GB, auto-renew, remark; a live price from the server's
 * catalogue and the contract's price functions, the balance and whether it is
 * enough; then the created proxies.
 */
export function PurchaseDrawer(props: { screen: TScreenConfig; isOpen: boolean; onClose: () => void }) {
  const { screen } = props;
  const { t } = useTranslation('proxies');
  const [form] = Form.useForm<TPurchaseValues>();
  const [result, setResult] = useState<TBuyResult | null>(null);
  const catalogue = usePriceCatalogue();
  const userInfo = useUserInfo();
  const buy = useBuyProxies(screen);
  // One key per submission; a retry of the same request (e.g. after a network error) reuses it, so it debits once.
  const pending = useRef<{ key: string; body: string } | null>(null);

  const billing = Form.useWatch('billing', form) ?? INITIAL_VALUES.billing;
  const quantity = Form.useWatch('quantity', form);
  const trafficGb = Form.useWatch('traffic_gb', form);
  const days = Form.useWatch('days', form);
  const preview = useMemo(() => {
    // Until the catalogue arrives there is no price to show; if it fails, the contract's list prices stand in.
    if (catalogue.isPending) return null;
    try {
      return previewPrice(screen.priceKind, { billing, quantity, trafficGb, days }, catalogue.data);
    } catch {
      return null;
    }
  }, [screen.priceKind, billing, quantity, trafficGb, days, catalogue.data, catalogue.isPending]);
  const balanceFen = userInfo.data ? yuanNumberToFen(userInfo.data.balance) : undefined;
  const isShort = preview !== null && balanceFen !== undefined && preview.totalFen > balanceFen;

  const handleFinish = async (values: TPurchaseValues) => {
    if (isShort) return;
    const request = toRequest(values);
    const body = JSON.stringify(request);
    if (pending.current?.body !== body) pending.current = { key: createIdempotencyKey(), body };
    try {
      const answer = await buy.mutateAsync({ request, idempotencyKey: pending.current.key });
      pending.current = null;
      setResult(answer);
      showSuccess(t('buy.success', { count: answer.tokens.length }));
    } catch {
      // The request layer has shown the reason (no stock, insufficient balance...); the key stays for a retry.
    }
  };

  const handleClose = () => {
    setResult(null);
    props.onClose();
  };

  const handleBuyMore = () => {
    setResult(null);
    pending.current = null;
  };

  const productLabel = t(`screens.${screen.key}.product`);
  return (
    <Drawer
      open={props.isOpen}
      onClose={handleClose}
      title={t('buy.title', { product: productLabel })}
      size={620}
      destroyOnHidden={false}
      footer={
        result ? (
          <Flex justify="end" gap={8}>
            <Button onClick={handleBuyMore}>{t('buy.buyMore')}</Button>
            <Button type="primary" onClick={handleClose}>
              {t('buy.done')}
            </Button>
          </Flex>
        ) : (
          <Flex justify="end" gap={8}>
            <Button onClick={handleClose}>{t('buy.cancel')}</Button>
            <Button type="primary" loading={buy.isPending} disabled={isShort} onClick={() => form.submit()} data-testid="buy-submit">
              {preview ? t('buy.submitWithPrice', { total: formatFen(preview.totalFen) }) : t('buy.submit')}
            </Button>
          </Flex>
        )
      }
    >
      {result ? (
        <PurchaseResult result={result} />
      ) : (
        <Form<TPurchaseValues> form={form} layout="vertical" initialValues={INITIAL_VALUES} onFinish={handleFinish}>
          <Form.Item label={t('buy.product')}>
            <Flex align="center" gap={8} wrap>
              <Typography.Text strong>{productLabel}</Typography.Text>
              {screen.category === 'idc' ? (
                <Typography.Text type="secondary">{t('buy.idcStaticOnly')}</Typography.Text>
              ) : (
                <Link to={OTHER_PRODUCT_PATH[screen.product]} onClick={handleClose}>
                  {t(`buy.switchTo.${screen.product === 'static' ? 'dynamic' : 'static'}`)}
                </Link>
              )}
            </Flex>
          </Form.Item>
          <Row gutter={12}>
            <Col xs={24} sm={12}>
              <Form.Item name="billing" label={t('buy.billing')}>
                <Radio.Group optionType="button" buttonStyle="solid" options={[{ value: 'ip', label: t('billing.ip') }, { value: 'traffic', label: t('billing.traffic') }]} />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item name="network" label={t('buy.network')}>
                <Radio.Group optionType="button" options={PROXY_NETWORKS.map((n) => ({ value: n, label: n }))} />
              </Form.Item>
            </Col>
          </Row>
          <AreaPicker category={screen.category} isCountryRequired />
          <Row gutter={12}>
            <Col xs={24} sm={billing === 'traffic' ? 12 : 8}>
              <Form.Item name="quantity" label={t('buy.quantity')} rules={[zodRule(ZBuyIpBody.shape.quantity)]}>
                <InputNumber min={1} max={PROXY_QUANTITY_MAX} precision={0} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            {billing === 'traffic' ? (
              <Col xs={24} sm={12}>
                <Form.Item name="traffic_gb" label={t('buy.trafficGb')} rules={[zodRule(zTrafficGb)]} extra={t('buy.trafficHint', { min: TRAFFIC_MIN_GB })}>
                  <InputNumber min={TRAFFIC_MIN_GB} step={0.1} precision={1} suffix="GB" style={{ width: '100%' }} />
                </Form.Item>
              </Col>
            ) : (
              <>
                <Col xs={24} sm={8}>
                  <Form.Item name="days" label={t('buy.days')} rules={[zodRule(zProxyDays)]}>
                    <InputNumber min={1} max={PROXY_DAYS_MAX} precision={0} suffix={t('buy.daysUnit')} style={{ width: '100%' }} />
                  </Form.Item>
                </Col>
                <Col xs={24} sm={8}>
                  <Form.Item name="auto_renew" label={t('buy.autoRenew')} valuePropName="checked" tooltip={t('buy.autoRenewHelp')}>
                    <Switch />
                  </Form.Item>
                </Col>
              </>
            )}
          </Row>
          <Form.Item name="remark" label={t('buy.remark')}>
            <Input maxLength={PROXY_REMARK_MAX} showCount placeholder={t('buy.remarkPlaceholder')} />
          </Form.Item>
          {catalogue.isError && <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={t('price.catalogueFailed')} />}
          <PricePreviewCard
            preview={preview}
            billing={billing}
            quantity={quantity}
            balanceFen={balanceFen}
            isLoadingPrices={catalogue.isPending}
          />
        </Form>
      )}
    </Drawer>
  );
}
