import { useMemo, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Alert, Button, Card, Col, Descriptions, Flex, Form, Input, Radio, Row, Typography, theme } from 'antd';
import { AlipayCircleOutlined, DollarOutlined, ExperimentOutlined, WechatOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  RECHARGE_FEE_FIXED_FEN,
  RECHARGE_FEE_PERCENT,
  formatFen,
  formatYuan,
  yuanToFen,
  type TChargeOption,
  type TChargeOptions,
  type TChargeResult,
  type TPayMethod,
  type TPayMode,
} from '@proxy/contract';
import { getLanguage } from '../../../lib/i18n';
import { useStartCharge } from '../api/start-charge';
import { amountText, checkCustomAmount, quoteCharge } from '../utils/amount';

const METHOD_ICONS: Record<TPayMethod, ReactNode> = {
  alipay: <AlipayCircleOutlined />,
  wechat: <WechatOutlined />,
  sandbox: <ExperimentOutlined />,
  usdt_trc20: <DollarOutlined />,
  usdt_erc20: <DollarOutlined />,
};

/** Opens a payment page in a new window; the page also offers a link in case the browser blocks it. */
export function openPayPage(url: string): void {
  window.open(url, '_blank', 'noopener,noreferrer');
}

/** One recharge option as a selectable card: the amount and its gift. */
function OptionCard(props: { option: TChargeOption; isSelected: boolean; onSelect: () => void }) {
  const { t } = useTranslation('payments');
  const { token } = theme.useToken();
  const { option, isSelected } = props;
  const handleKey = (event: KeyboardEvent) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      props.onSelect();
    }
  };
  return (
    <Card
      hoverable
      role="radio"
      aria-checked={isSelected}
      tabIndex={0}
      onClick={props.onSelect}
      onKeyDown={handleKey}
      data-testid={`charge-option-${option.id}`}
      styles={{ body: { padding: 12, textAlign: 'center' } }}
      style={{
        borderColor: isSelected ? token.colorPrimary : undefined,
        boxShadow: isSelected ? `0 0 0 1px ${token.colorPrimary}` : undefined,
      }}
    >
      <Typography.Text strong style={{ fontSize: 20, color: isSelected ? token.colorPrimaryText : undefined }}>
        {formatYuan(option.amount)}
      </Typography.Text>
      <div style={{ minHeight: 22 }}>
        {option.gift > 0 && (
          <Typography.Text type="success">{t('form.gift', { gift: formatYuan(option.gift) })}</Typography.Text>
        )}
      </div>
    </Card>
  );
}

/**
 * The top-up form: an option card or a custom amount (checked with the
 * contract's parser and the answer's bounds), a method the server offers (and
 * Alipay's mode when it offers both), then amount, gift, fee, total to pay and
 * what the balance receives, and the non-refundable note (spec section 9).
 */
export function ChargeForm(props: { options: TChargeOptions; onStarted: (charge: TChargeResult) => void }) {
  const { t } = useTranslation('payments');
  const { options } = props;
  const lang = getLanguage();
  const [optionId, setOptionId] = useState<number | null>(options.record[0]?.id ?? null);
  const [custom, setCustom] = useState('');
  const [isCustomChecked, setIsCustomChecked] = useState(false);
  const [pickedMethod, setMethod] = useState<TPayMethod | undefined>(undefined);
  const [mode, setMode] = useState<TPayMode | undefined>(undefined);
  const start = useStartCharge();

  const option = options.record.find((o) => o.id === optionId);
  const isCustom = option === undefined && custom.trim() !== '';
  const customCheck = isCustom ? checkCustomAmount(custom, options, lang) : undefined;
  const amountFen = option ? yuanToFen(option.amount) : customCheck?.fen;
  const quote = useMemo(
    () => (amountFen === undefined ? null : quoteCharge(amountFen, options.record)),
    [amountFen, options.record],
  );

  // The first method the server offers until one is picked (and again if the picked one goes away).
  const methods = options.methods;
  const method = methods.some((m) => m.method === pickedMethod) ? pickedMethod : methods[0]?.method;
  const methodModes = methods.find((m) => m.method === method)?.modes ?? [];
  const chosenMode = methodModes.length > 1 ? (mode && methodModes.includes(mode) ? mode : methodModes[0]) : undefined;
  const customError = isCustomChecked ? customCheck?.error : undefined;

  const chooseOption = (id: number) => {
    setOptionId(id);
    setCustom('');
    setIsCustomChecked(false);
  };

  const handlePay = () => {
    setIsCustomChecked(true);
    if (!quote || !method || customCheck?.error) return;
    start.mutate(
      { method, amountFen: quote.amountFen, mode: chosenMode },
      {
        onSuccess: (charge) => {
          if (charge.mode === 'redirect' && charge.pay_url) openPayPage(charge.pay_url);
          props.onStarted(charge);
        },
      },
    );
  };

  return (
    <Form layout="vertical" style={{ maxWidth: 760 }} onFinish={handlePay}>
      <Form.Item label={t('form.amount')} required>
        <Row gutter={[12, 12]} role="radiogroup" aria-label={t('form.amountLabel')}>
          {options.record.map((o) => (
            <Col key={o.id} xs={12} sm={8} md={6}>
              <OptionCard option={o} isSelected={o.id === optionId} onSelect={() => chooseOption(o.id)} />
            </Col>
          ))}
        </Row>
      </Form.Item>
      <Form.Item
        label={t('form.custom')}
        htmlFor="charge-custom-amount"
        validateStatus={customError ? 'error' : undefined}
        help={customError}
      >
        <Input
          id="charge-custom-amount"
          prefix="¥"
          inputMode="decimal"
          allowClear
          style={{ maxWidth: 320 }}
          value={custom}
          placeholder={t('form.customPlaceholder', {
            min: amountText(yuanToFen(options.min_amount)),
            max: amountText(yuanToFen(options.max_amount)),
          })}
          onChange={(event) => {
            setCustom(event.target.value);
            if (event.target.value.trim() !== '') setOptionId(null);
          }}
          onBlur={() => setIsCustomChecked(custom.trim() !== '')}
        />
      </Form.Item>
      <Form.Item label={t('form.method')} required>
        {methods.length === 0 ? (
          <Alert type="warning" showIcon title={t('form.noMethods')} />
        ) : (
          <Radio.Group
            optionType="button"
            buttonStyle="solid"
            value={method}
            onChange={(event) => setMethod(event.target.value as TPayMethod)}
            options={methods.map((m) => ({
              value: m.method,
              label: (
                <Flex gap={6} align="center">
                  {METHOD_ICONS[m.method]}
                  {t(`methods.${m.method}`)}
                </Flex>
              ),
            }))}
          />
        )}
      </Form.Item>
      {chosenMode && (
        <Form.Item label={t('form.mode')}>
          <Radio.Group
            value={chosenMode}
            onChange={(event) => setMode(event.target.value as TPayMode)}
            options={methodModes.map((m) => ({ value: m, label: t(`modes.${m}`) }))}
          />
        </Form.Item>
      )}
      <Typography.Title level={5}>{t('summary.title')}</Typography.Title>
      <Descriptions
        size="small"
        column={1}
        bordered
        data-testid="charge-summary"
        styles={{ label: { width: 200 } }}
        items={[
          {
            key: 'amount',
            label: t('summary.amount'),
            children: <span data-testid="charge-amount">{quote ? formatFen(quote.amountFen) : '-'}</span>,
          },
          {
            key: 'gift',
            label: t('summary.gift'),
            children: <span data-testid="charge-gift">{quote ? formatFen(quote.giftFen) : '-'}</span>,
          },
          {
            key: 'fee',
            label: t('summary.fee', { percent: RECHARGE_FEE_PERCENT, fixed: formatFen(RECHARGE_FEE_FIXED_FEN) }),
            children: <span data-testid="charge-fee">{quote ? formatFen(quote.feeFen) : '-'}</span>,
          },
          {
            key: 'price',
            label: t('summary.price'),
            children: (
              <Typography.Text strong style={{ fontSize: 18 }} data-testid="charge-price">
                {quote ? formatFen(quote.priceFen) : '-'}
              </Typography.Text>
            ),
          },
          {
            key: 'value',
            label: t('summary.value'),
            children: (
              <Typography.Text type="success" strong data-testid="charge-value">
                {quote ? formatFen(quote.valueFen) : '-'}
              </Typography.Text>
            ),
          },
        ]}
      />
      <Alert
        style={{ margin: '16px 0' }}
        type="warning"
        showIcon
        title={t('summary.nonRefundable')}
        data-testid="non-refundable"
      />
      <Flex gap={12} align="center">
        <Button
          type="primary"
          size="large"
          htmlType="submit"
          loading={start.isPending}
          disabled={!method || (quote === null && !isCustom)}
          data-testid="charge-submit"
        >
          {quote && !customError ? t('form.payWithPrice', { price: formatFen(quote.priceFen) }) : t('form.pay')}
        </Button>
        {quote === null && !isCustom && <Typography.Text type="secondary">{t('form.chooseAmount')}</Typography.Text>}
      </Flex>
    </Form>
  );
}
