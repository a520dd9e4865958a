import { Flex, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TPayOrder, TPaymentStatus } from '@proxy/contract';

const STATUS_COLORS: Record<TPaymentStatus, string> = {
  pending: 'processing',
  success: 'success',
  failure: 'error',
  cancelled: 'default',
  timeout: 'warning',
};

/** A payment state of spec section 4 as a coloured tag. */
export function PaymentStatusTag(props: { status: TPaymentStatus }) {
  const { t } = useTranslation('payments');
  return (
    <Tag color={STATUS_COLORS[props.status]} data-testid="payment-status">
      {t(`status.${props.status}`)}
    </Tag>
  );
}

/** An order's state, marked when it is a sandbox order, was paid after it had timed out, or was reversed (refunded). */
export function OrderStatusTags(props: { order: TPayOrder }) {
  const { t } = useTranslation('payments');
  const { order } = props;
  return (
    <Flex gap={4} wrap>
      <PaymentStatusTag status={order.status} />
      {order.is_sandbox && <Tag color="purple">{t('bills.sandboxTag')}</Tag>}
      {order.is_paid_late && <Tag color="gold">{t('bills.paidLateTag')}</Tag>}
      {order.reversed_at && (
        <Tag color="red" data-testid="order-reversed">
          {t('bills.reversedTag')}
        </Tag>
      )}
    </Flex>
  );
}
