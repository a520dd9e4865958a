import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatYuan } from '../../../lib/format';
import { showInfo, showSuccess, showWarning } from '../../../lib/message';
import { useCheckPayOrder } from '../api/check-payment';

/**
 * "I have paid" on a pending or expired order: the server asks the provider
 * (or the chain) about it and credits a payment it finds; says what came of it.
 */
export function CheckPaymentButton(props: { orderId: string; size?: 'small' | 'middle'; type?: 'default' | 'link' }) {
  const { t } = useTranslation('payments');
  const check = useCheckPayOrder();

  const handleClick = async () => {
    try {
      const checked = await check.mutateAsync(props.orderId);
      if (checked.result === 'credited') showSuccess(t('check.credited', { value: formatYuan(checked.order.value) }));
      else if (checked.result === 'already_paid') showInfo(t('check.alreadyPaid'));
      else if (checked.result === 'referred') showWarning(t('check.referred', { id: checked.work_order_id }));
      else showInfo(t('check.notFound'));
    } catch {
      // The request layer has shown why (e.g. too many checks: try again later).
    }
  };

  return (
    <Button
      size={props.size}
      type={props.type}
      loading={check.isPending}
      onClick={() => void handleClick()}
      data-testid={`check-payment-${props.orderId}`}
    >
      {t('check.button')}
    </Button>
  );
}
