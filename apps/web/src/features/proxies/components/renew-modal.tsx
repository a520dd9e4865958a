import { useEffect, useMemo, useRef } from 'react';
import { Alert, Descriptions, Form, InputNumber, Modal, Radio, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  formatFen,
  formatYuan,
  PROXY_DAYS_MAX,
  priceIpFen,
  ZRenewBody,
  zProxyDays,
  type TProxyToken,
} from '@proxy/contract';
import { usePriceCatalogue } from '../../../entities/pricing/price-catalogue';
import { zodRule } from '../../../lib/form-rules';
import { getLanguage } from '../../../lib/i18n';
import { createIdempotencyKey } from '../../../lib/idempotency-key';
import { showSuccess, showWarning } from '../../../lib/message';
import { usePayways } from '../api/payways';
import { useRenewPreview } from '../api/renew-preview';
import { useRenewTokens } from '../api/renew-tokens';
import { yuanNumberToFen } from '../utils/price-preview';
import { defaultRenewDays, RENEW_PERIODS } from '../utils/renew-periods';
import type { TScreenConfig } from '../utils/screens';
import { RenewPreviewTable } from './renew-preview-table';
import { TopUpLink } from './top-up-link';

type TRenewValues = { days: number | null; payway?: 'balance' };

/**
 * Renews IP proxies: days and a payment option from GET /token/payway/list,
 * which must be selected first (spec section 5); the price comes from the
 * catalogue. Failures say "renewal failed, please try again later". One
 * Idempotency-Key per opening and renewal: a retry of the same renewal (after
 * a network error) reuses it, so it debits once; other days get a new one.
 */
export function RenewModal(props: { screen: TScreenConfig; tokens: TProxyToken[]; onClose: () => void }) {
  const { t } = useTranslation('proxies');
  const [form] = Form.useForm<TRenewValues>();
  const isOpen = props.tokens.length > 0;
  const payways = usePayways(isOpen);
  const catalogue = usePriceCatalogue();
  const renew = useRenewTokens(props.screen);
  const days = Form.useWatch('days', form);
  const payway = Form.useWatch('payway', form);
  const lang = getLanguage();

  const costFen = useMemo(() => {
    if (catalogue.isPending) return null;
    return (n: number) => priceIpFen(props.screen.priceKind, n, catalogue.data) * props.tokens.length;
  }, [catalogue.data, catalogue.isPending, props.screen.priceKind, props.tokens.length]);

  // Each opening starts at the shortest period the balance covers, once the prices and the balance are known.
  const hasDefault = useRef(false);
  const pending = useRef<{ key: string; body: string } | null>(null);
  useEffect(() => {
    if (!isOpen) return;
    form.resetFields();
    hasDefault.current = false;
    pending.current = null;
  }, [isOpen, form]);
  const balanceFen = payways.data?.length
    ? yuanNumberToFen((payways.data.find((p) => p.id === 'balance') ?? payways.data[0]).balance)
    : null;
  useEffect(() => {
    if (!isOpen || hasDefault.current || !costFen || balanceFen === null) return;
    hasDefault.current = true;
    form.setFieldsValue({ days: defaultRenewDays(RENEW_PERIODS, costFen, balanceFen) });
  }, [isOpen, costFen, balanceFen, form]);

  const validDays =
    typeof days === 'number' && Number.isSafeInteger(days) && days >= 1 && days <= PROXY_DAYS_MAX ? days : null;
  const totalFen = useMemo(() => (validDays === null || !costFen ? null : costFen(validDays)), [validDays, costFen]);
  const tokenIds = useMemo(() => props.tokens.map((x) => x.token_id), [props.tokens]);
  const preview = useRenewPreview(props.screen, isOpen ? tokenIds : [], validDays);
  const chosen = payways.data?.find((p) => p.id === payway);
  const isShort = totalFen !== null && chosen !== undefined && totalFen > yuanNumberToFen(chosen.balance);

  const handleFinish = (values: TRenewValues) => {
    if (!values.payway) {
      showWarning(t('renew.paywayRequired'));
      return;
    }
    const request = { tokenIds: props.tokens.map((x) => x.token_id), days: values.days ?? 0, payway: values.payway };
    const body = JSON.stringify(request);
    if (pending.current?.body !== body) pending.current = { key: createIdempotencyKey(), body };
    renew.mutate(
      { request, idempotencyKey: pending.current.key },
      {
        onSuccess: (result) => {
          if (result.success > 0)
            showSuccess(
              t('renew.success', { success: result.success, total: result.total, cost: formatYuan(result.cost) }),
            );
          if (result.failed > 0) showWarning(t('renew.partlyFailed', { failed: result.failed, total: result.total }));
          props.onClose();
        },
      },
    );
  };

  return (
    <Modal
      open={isOpen}
      title={
        props.tokens.length === 1
          ? t('renew.title', { name: props.tokens[0].username })
          : t('renew.titleMany', { count: props.tokens.length })
      }
      okText={t('renew.submit')}
      onOk={() => form.submit()}
      okButtonProps={{ loading: renew.isPending, disabled: isShort, 'data-testid': 'renew-submit' }}
      onCancel={props.onClose}
      destroyOnHidden
    >
      <Form<TRenewValues>
        form={form}
        layout="vertical"
        initialValues={{ days: RENEW_PERIODS[0] }}
        onFinish={handleFinish}
      >
        <Form.Item label={t('renew.periods')}>
          <Radio.Group
            optionType="button"
            value={days}
            onChange={(e) => form.setFieldsValue({ days: e.target.value as number })}
            data-testid="renew-periods"
            options={RENEW_PERIODS.map((n) => ({
              value: n,
              label: costFen
                ? t('renew.periodOption', { days: n, cost: formatFen(costFen(n)) })
                : t('renew.periodDays', { days: n }),
            }))}
          />
        </Form.Item>
        {/* Any whole number of days in bounds may be typed; a value out of them is refused with the reason, never changed. */}
        <Form.Item
          name="days"
          label={t('renew.days')}
          rules={[zodRule(zProxyDays)]}
          extra={t('buy.daysHint', { max: PROXY_DAYS_MAX })}
        >
          <InputNumber suffix={t('buy.daysUnit')} style={{ width: 200 }} />
        </Form.Item>
        <Form.Item label={t('renew.payway')} required>
          {payways.isPending ? (
            <Spin size="small" />
          ) : payways.isError ? (
            <Typography.Text type="danger">{t('errors.fetchPayways')}</Typography.Text>
          ) : (
            <Form.Item name="payway" noStyle rules={[zodRule(ZRenewBody.shape.payway)]}>
              <Radio.Group
                options={(payways.data ?? []).map((p) => ({
                  value: p.id,
                  label: t('renew.paywayOption', {
                    name: lang === 'zh' ? p.name_zh : p.name_en,
                    balance: formatYuan(p.balance),
                  }),
                }))}
              />
            </Form.Item>
          )}
        </Form.Item>
        <Descriptions
          size="small"
          column={1}
          bordered
          items={[{ key: 'count', label: t('renew.count'), children: props.tokens.length }]}
        />
        {/* The server prices each proxy as the renewal will, and says which the balance covers in renewal order. */}
        <div style={{ marginTop: 12 }}>
          {validDays === null ? (
            <Typography.Text type="secondary">-</Typography.Text>
          ) : preview.data ? (
            <RenewPreviewTable preview={preview.data} />
          ) : preview.isError ? (
            <Typography.Text type="danger">{t('renew.previewFailed')}</Typography.Text>
          ) : (
            <Spin size="small" />
          )}
        </div>
        {isShort && (
          <Alert
            style={{ marginTop: 12 }}
            type="error"
            showIcon
            title={t('renew.insufficient')}
            action={<TopUpLink onFollow={props.onClose} />}
          />
        )}
      </Form>
    </Modal>
  );
}
