import { Descriptions, Drawer, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatYuan, type TPayOrder } from '@proxy/contract';
import { formatDateTimeSeconds } from '../../../lib/format';
import { usePayOrder } from '../api/pay-order';
import { CancelOrderButton } from './cancel-order-button';
import { OrderStatusTags } from './payment-status-tag';

/** Every field of one recharge order, followed live while it is pending, with its cancel button. */
export function OrderDetailDrawer(props: { order: TPayOrder | null; onClose: () => void }) {
  const { t } = useTranslation('payments');
  const live = usePayOrder(props.order?.order_id ?? null, props.order ?? undefined);
  const order = props.order ? (live.data ?? props.order) : null;
  const yesNo = (value: boolean) => (value ? t('fields.yes') : t('fields.no'));

  return (
    <Drawer
      open={order !== null}
      onClose={props.onClose}
      title={order ? t('order.title', { id: order.order_id }) : ''}
      size={520}
      extra={order?.status === 'pending' ? <CancelOrderButton orderId={order.order_id} /> : null}
    >
      {order && (
        <Descriptions
          size="small"
          column={1}
          bordered
          data-testid="order-detail"
          styles={{ label: { width: 150, whiteSpace: 'nowrap' } }}
          items={[
            { key: 'id', label: t('fields.orderId'), children: order.order_id },
            {
              key: 'status',
              label: t('fields.status'),
              children: <OrderStatusTags order={order} />,
            },
            { key: 'completed', label: t('fields.completed'), children: yesNo(order.is_completed) },
            { key: 'method', label: t('fields.method'), children: t(`methods.${order.method}`) },
            { key: 'description', label: t('fields.description'), children: order.description },
            { key: 'date', label: t('fields.date'), children: order.date },
            { key: 'created', label: t('fields.createdAt'), children: formatDateTimeSeconds(order.created_at) },
            { key: 'expires', label: t('fields.expiresAt'), children: formatDateTimeSeconds(order.expires_at) },
            {
              key: 'paid',
              label: t('fields.paidAt'),
              children: order.paid_at ? formatDateTimeSeconds(order.paid_at) : '-',
            },
            { key: 'amount', label: t('fields.amount'), children: formatYuan(order.amount) },
            { key: 'fee', label: t('fields.fee'), children: formatYuan(order.fee) },
            { key: 'price', label: t('fields.price'), children: formatYuan(order.price) },
            { key: 'gift', label: t('fields.gift'), children: formatYuan(order.gift) },
            { key: 'value', label: t('fields.value'), children: formatYuan(order.value) },
            { key: 'sandbox', label: t('fields.sandbox'), children: yesNo(order.is_sandbox) },
            { key: 'late', label: t('fields.paidLate'), children: yesNo(order.is_paid_late) },
            ...(order.crypto
              ? [
                  {
                    key: 'usdt-amount',
                    label: t('usdt.amount'),
                    children: <Typography.Text copyable>{order.crypto.amount}</Typography.Text>,
                  },
                  {
                    key: 'usdt-network',
                    label: t('usdt.network'),
                    children: t(`usdt.networks.${order.crypto.network}`),
                  },
                  {
                    key: 'usdt-address',
                    label: t('usdt.address'),
                    children: <Typography.Text copyable>{order.crypto.address}</Typography.Text>,
                  },
                  {
                    key: 'usdt-rate',
                    label: t('usdt.rate'),
                    children: t('usdt.rateValue', { rate: order.crypto.rate }),
                  },
                ]
              : []),
          ]}
        />
      )}
    </Drawer>
  );
}
