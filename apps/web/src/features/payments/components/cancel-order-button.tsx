import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { confirmAction, showSuccess } from '../../../lib/message';
import { useCancelPayOrder } from '../api/cancel-order';

/** Cancels a pending order after a confirmation (POST /pay/cancel/{order_id}). */
export function CancelOrderButton(props: { orderId: string; size?: 'small' | 'middle'; type?: 'default' | 'link' }) {
  const { t } = useTranslation('payments');
  const cancel = useCancelPayOrder();

  const handleClick = () =>
    confirmAction({
      title: t('order.cancelConfirm', { id: props.orderId }),
      content: t('order.cancelConfirmText'),
      okText: t('order.cancel'),
      isDanger: true,
      onOk: async () => {
        try {
          await cancel.mutateAsync(props.orderId);
          showSuccess(t('order.cancelled'));
        } catch {
          // The request layer has shown why (e.g. the order has ended meanwhile).
        }
      },
    });

  return (
    <Button
      danger
      size={props.size}
      type={props.type}
      loading={cancel.isPending}
      onClick={handleClick}
      data-testid={`cancel-order-${props.orderId}`}
    >
      {t('order.cancel')}
    </Button>
  );
}
