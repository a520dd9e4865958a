import { Alert, Button, Descriptions, Flex, QRCode, Result, Spin, Typography } from 'antd';
import { ExportOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { formatYuan, type TChargeResult, type TPaymentStatus } from '@proxy/contract';
import { formatDateTimeSeconds } from '../../../lib/format';
import { usePayOrder } from '../api/pay-order';
import { CancelOrderButton } from './cancel-order-button';
import { OrderStatusTags } from './payment-status-tag';
import { UsdtPayment } from './usdt-payment';

const RESULT_STATUS: Record<Exclude<TPaymentStatus, 'pending'>, 'success' | 'error' | 'info' | 'warning'> = {
  success: 'success',
  failure: 'error',
  cancelled: 'info',
  timeout: 'warning',
};

/**
 * A started recharge: how to pay it (the payment page, opened in a new window
 * with a link in case it was blocked, or a QR code to scan), then the order's
 * live status until it ends, with a cancel button while it is pending. A USDT
 * order shows its exact amount, network, address and countdown instead.
 */
export function PaymentPanel(props: { charge: TChargeResult; onAgain: () => void; onShowBills: () => void }) {
  const { t } = useTranslation('payments');
  const { charge } = props;
  const live = usePayOrder(charge.order_id, charge);
  const order = live.data ?? charge;
  const methodName = t(`methods.${order.method}`);

  const header = (
    <Descriptions
      size="small"
      column={{ xs: 1, sm: 2 }}
      bordered
      items={[
        {
          key: 'id',
          label: t('fields.orderId'),
          children: <Typography.Text copyable>{order.order_id}</Typography.Text>,
        },
        {
          key: 'status',
          label: t('fields.status'),
          children: <OrderStatusTags order={order} />,
        },
        { key: 'method', label: t('order.method'), children: methodName },
        {
          key: 'price',
          label: t('order.price'),
          children: <Typography.Text strong>{formatYuan(order.price)}</Typography.Text>,
        },
        { key: 'value', label: t('order.value'), children: formatYuan(order.value) },
      ]}
    />
  );

  if (order.status !== 'pending') {
    const status = order.status;
    return (
      <Flex vertical gap={16} style={{ maxWidth: 760 }} data-testid="payment-panel">
        {header}
        <Result
          status={RESULT_STATUS[status]}
          title={t(`order.result.${status}`)}
          subTitle={t(`order.result.${status}Text`, { value: formatYuan(order.value) })}
          extra={[
            <Button key="again" type="primary" onClick={props.onAgain}>
              {t('order.again')}
            </Button>,
            <Button key="bills" onClick={props.onShowBills}>
              {t('order.viewBills')}
            </Button>,
          ]}
        />
      </Flex>
    );
  }

  return (
    <Flex vertical gap={16} style={{ maxWidth: 760 }} data-testid="payment-panel">
      {header}
      {order.crypto ? (
        <UsdtPayment crypto={order.crypto} expiresAt={order.expires_at} />
      ) : charge.mode === 'qr' && charge.qr_code ? (
        <Flex vertical align="center" gap={8}>
          <div data-testid="pay-qr-code">
            <QRCode value={charge.qr_code} type="svg" size={200} bgColor="#ffffff" color="#000000" errorLevel="M" />
          </div>
          <Typography.Text>{t('order.qrHint', { method: methodName })}</Typography.Text>
        </Flex>
      ) : (
        charge.pay_url && (
          <Alert
            type="info"
            showIcon
            title={t('order.redirectHint')}
            action={
              <Button
                href={charge.pay_url}
                target="_blank"
                rel="noopener noreferrer"
                icon={<ExportOutlined />}
                data-testid="pay-page-link"
              >
                {t('order.openPage')}
              </Button>
            }
          />
        )
      )}
      <Flex vertical align="center" gap={8}>
        <Spin />
        <Typography.Text>{t('order.waiting')}</Typography.Text>
        <Typography.Text type="secondary">
          {t('order.expiresAt', { time: formatDateTimeSeconds(order.expires_at) })}
        </Typography.Text>
        {live.isError && <Typography.Text type="warning">{t('order.pollFailed')}</Typography.Text>}
      </Flex>
      <Flex gap={8} justify="center">
        <Button onClick={() => void live.refetch()}>{t('order.checkNow')}</Button>
        <CancelOrderButton orderId={order.order_id} />
      </Flex>
    </Flex>
  );
}
