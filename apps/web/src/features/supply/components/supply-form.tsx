import { useMemo, useRef, useState } from 'react';
import { Button, Checkbox, Col, Form, Input, InputNumber, Radio, Row, Select, Skeleton, type FormRule } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  ERRORS,
  PROXY_DAYS_MAX,
  PROXY_NETWORKS,
  SUPPLY_AMOUNT_BOUNDS,
  SUPPLY_IP_DAYS_DEFAULT,
  SUPPLY_PRODUCTS,
  SUPPLY_REGIONS,
  SUPPLY_REMARK_MAX,
  SUPPLY_TYPES,
  ISO_COUNTRY_CODES,
  ZSupplyCreateBody,
  formatYuan,
  supplyFeeFen,
  validationMessage,
  yuanToFen,
  type TProxyNetwork,
  type TSupplyProduct,
  type TSupplyType,
} from '@proxy/contract';
import { useAreaCountries } from '../../../entities/areas/area-countries';
import { usePriceCatalogue } from '../../../entities/pricing/price-catalogue';
import { useUserInfo } from '../../../entities/users/user-info';
import { ApiError } from '../../../lib/api-client';
import { zodRule } from '../../../lib/form-rules';
import { getLanguage } from '../../../lib/i18n';
import { createIdempotencyKey } from '../../../lib/idempotency-key';
import { showSuccess } from '../../../lib/message';
import { markServerIssues } from '../../../lib/server-issues';
import { useCreateSupply, type TSupplyCreateRequest } from '../api/create-supply';
import { FeeCard } from './fee-card';
import { regionName } from './region-name';
import { SupplyTerms } from './supply-terms';

/** Fields of the supply form. */
type TSupplyValues = {
  type: TSupplyType;
  product: TSupplyProduct;
  network: TProxyNetwork;
  amount: number | null;
  days: number | null;
  region?: string;
  wait_days: number | null;
  remark?: string;
  contact_email?: string;
  agree_terms: boolean;
};

const INITIAL: TSupplyValues = {
  type: 'traffic',
  product: 'dynamic',
  network: 'HTTP',
  amount: 1,
  days: SUPPLY_IP_DAYS_DEFAULT,
  wait_days: 7,
  agree_terms: false,
};

const FIELDS = [
  'type',
  'product',
  'network',
  'amount',
  'days',
  'region',
  'wait_days',
  'remark',
  'contact_email',
  'agree_terms',
] as const;
const shape = ZSupplyCreateBody.shape;

function toBody(values: TSupplyValues): TSupplyCreateRequest {
  return {
    type: values.type,
    product: values.product,
    network: values.network,
    amount: values.amount ?? 0,
    ...(values.type === 'ip' ? { days: values.days ?? SUPPLY_IP_DAYS_DEFAULT } : {}),
    region: values.region ?? '',
    wait_days: values.wait_days ?? 0,
    remark: values.remark?.trim() ?? '',
    contact_email: values.contact_email ?? '',
    agree_terms: values.agree_terms as true,
  };
}

// The fee of the values, when they make a valid quote.
function feeOf(values: Partial<TSupplyValues>, catalogue: Parameters<typeof supplyFeeFen>[1]): number | null {
  const { type, product, amount, days } = values;
  if (!type || !product || typeof amount !== 'number') return null;
  const bounds = SUPPLY_AMOUNT_BOUNDS[type];
  if (!Number.isInteger(amount) || amount < bounds.min || amount > bounds.max) return null;
  const ipDays = days ?? SUPPLY_IP_DAYS_DEFAULT;
  if (type === 'ip' && (!Number.isInteger(ipDays) || ipDays < 1 || ipDays > PROXY_DAYS_MAX)) return null;
  return supplyFeeFen({ type, product, amount, days: ipDays }, catalogue);
}

/** The terms with their "I agree" box, the form with the live fee and the balance after freezing. */
export function SupplyForm() {
  const { t } = useTranslation('supply');
  const [form] = Form.useForm<TSupplyValues>();
  const user = useUserInfo();
  const catalogue = usePriceCatalogue();
  const create = useCreateSupply();
  const [isShort, setIsShort] = useState(false);
  const pending = useRef<{ key: string; body: string } | null>(null);
  const values = Form.useWatch([], form) as Partial<TSupplyValues> | undefined;
  const type = values?.type ?? INITIAL.type;
  const product = values?.product ?? INITIAL.product;
  const countries = useAreaCountries(product === 'idc' ? 'idc' : 'isp', { skipTips: true });
  const lang = getLanguage();
  const email = user.data?.email;

  const regionOptions = useMemo(() => {
    const stock = new Map((countries.data ?? []).map((c) => [c.id, c.available]));
    // The spec's six first, then every other country by name ("gb" is offered as the spec's "uk").
    const first = new Set<string>([...SUPPLY_REGIONS, 'gb']);
    const others = ISO_COUNTRY_CODES.filter((code) => !first.has(code))
      .map((code) => ({ code, name: regionName(code, lang) }))
      .sort((a, b) => a.name.localeCompare(b.name, lang === 'zh' ? 'zh-CN' : 'en'))
      .map((c) => c.code);
    const codes = [...SUPPLY_REGIONS, ...others];
    return codes.map((code) => {
      const available = stock.get(code === 'uk' ? 'gb' : code) ?? 0;
      return {
        value: code,
        label: `${regionName(code, lang)} (${code}) · ${t('form.regionStock', { count: available })}`,
      };
    });
  }, [countries.data, lang, t]);

  const feeFen = feeOf(values ?? INITIAL, catalogue.data);
  const availableFen = user.data ? yuanToFen(user.data.balance) : undefined;
  const frozenFen = user.data ? yuanToFen(user.data.frozen_balance) : undefined;

  const amountRule: FormRule = ({ getFieldValue }) => ({
    validator: async (_rule, value: unknown) => {
      const bounds = SUPPLY_AMOUNT_BOUNDS[getFieldValue('type') as TSupplyType];
      if (typeof value !== 'number' || !Number.isInteger(value) || value < bounds.min || value > bounds.max) {
        throw new Error(validationMessage(bounds.message, getLanguage()));
      }
    },
  });

  const handleFinish = async (submitted: TSupplyValues) => {
    const body = toBody(submitted);
    const text = JSON.stringify(body);
    if (pending.current?.body !== text) pending.current = { key: createIdempotencyKey(), body: text };
    setIsShort(false);
    try {
      const answer = await create.mutateAsync({ body, idempotencyKey: pending.current.key });
      pending.current = null;
      showSuccess(t('form.submitted', { id: answer.request_id, cost: formatYuan(answer.cost) }));
    } catch (error) {
      // The request layer has toasted the reason; a short balance also shows the top-up link, bad fields are marked.
      if (error instanceof ApiError && error.code === ERRORS.SUPPLY_INSUFFICIENT_BALANCE.code) setIsShort(true);
      markServerIssues(form, error, FIELDS);
    }
  };

  return (
    <Row gutter={16}>
      <Col xs={24} lg={15}>
        <SupplyTerms />
        {/* The account's e-mail is the default contact address: the form waits for it. */}
        {!user.data ? <Skeleton active /> : null}
        {user.data ? (
          <Form<TSupplyValues>
            form={form}
            layout="vertical"
            initialValues={{ ...INITIAL, contact_email: email }}
            onFinish={(values) => void handleFinish(values)}
            data-testid="supply-form"
          >
            <Row gutter={12}>
              <Col xs={24} sm={12}>
                <Form.Item name="type" label={t('form.type')}>
                  <Radio.Group
                    optionType="button"
                    buttonStyle="solid"
                    options={SUPPLY_TYPES.map((v) => ({ value: v, label: t(`form.types.${v}`) }))}
                  />
                </Form.Item>
              </Col>
              <Col xs={24} sm={12}>
                <Form.Item name="network" label={t('form.network')}>
                  <Radio.Group optionType="button" options={PROXY_NETWORKS.map((n) => ({ value: n, label: n }))} />
                </Form.Item>
              </Col>
            </Row>
            <Row gutter={12}>
              <Col xs={24} sm={12}>
                <Form.Item name="product" label={t('form.product')}>
                  <Select options={SUPPLY_PRODUCTS.map((p) => ({ value: p, label: t(`form.products.${p}`) }))} />
                </Form.Item>
              </Col>
              <Col xs={24} sm={12}>
                <Form.Item name="region" label={t('form.region')} rules={[zodRule(shape.region)]}>
                  <Select
                    showSearch
                    optionFilterProp="label"
                    placeholder={t('form.regionPlaceholder')}
                    options={regionOptions}
                    data-testid="supply-region"
                  />
                </Form.Item>
              </Col>
            </Row>
            <Row gutter={12}>
              <Col xs={24} sm={type === 'ip' ? 8 : 12}>
                <Form.Item
                  name="amount"
                  label={type === 'traffic' ? t('form.amountTraffic') : t('form.amountIp')}
                  extra={type === 'traffic' ? t('form.amountHintTraffic') : t('form.amountHintIp')}
                  dependencies={['type']}
                  rules={[amountRule]}
                >
                  <InputNumber
                    precision={0}
                    suffix={type === 'traffic' ? 'GB' : undefined}
                    style={{ width: '100%' }}
                    data-testid="supply-amount"
                  />
                </Form.Item>
              </Col>
              {type === 'ip' ? (
                <Col xs={24} sm={8}>
                  <Form.Item name="days" label={t('form.days')}>
                    <InputNumber
                      min={1}
                      max={PROXY_DAYS_MAX}
                      precision={0}
                      suffix={t('form.daysUnit')}
                      style={{ width: '100%' }}
                    />
                  </Form.Item>
                </Col>
              ) : null}
              <Col xs={24} sm={type === 'ip' ? 8 : 12}>
                <Form.Item
                  name="wait_days"
                  label={t('form.waitDays')}
                  extra={t('form.waitDaysHint')}
                  rules={[zodRule(shape.wait_days)]}
                >
                  <InputNumber precision={0} suffix={t('form.daysUnit')} style={{ width: '100%' }} />
                </Form.Item>
              </Col>
            </Row>
            <Form.Item
              name="contact_email"
              label={t('form.contactEmail')}
              extra={t('form.contactEmailHint')}
              rules={[zodRule(shape.contact_email)]}
            >
              <Input type="email" autoComplete="email" />
            </Form.Item>
            <Form.Item name="remark" label={t('form.remark')} rules={[zodRule(shape.remark)]}>
              <Input.TextArea
                maxLength={SUPPLY_REMARK_MAX}
                showCount
                rows={2}
                placeholder={t('form.remarkPlaceholder')}
              />
            </Form.Item>
            <Form.Item name="agree_terms" valuePropName="checked" rules={[zodRule(shape.agree_terms)]}>
              <Checkbox data-testid="supply-agree">{t('terms.agree')}</Checkbox>
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={create.isPending} data-testid="supply-submit">
              {t('form.submit')}
            </Button>
          </Form>
        ) : null}
      </Col>
      <Col xs={24} lg={9}>
        <FeeCard feeFen={feeFen} availableFen={availableFen} frozenFen={frozenFen} isShort={isShort} />
      </Col>
    </Row>
  );
}
