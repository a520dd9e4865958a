import { Button, Popconfirm } from 'antd';
import { useTranslation } from 'react-i18next';
import { showSuccess } from '../../../lib/message';
import { useCancelWorkOrder } from '../api/cancel-work-order';

/** Cancels an open or answered work order after a confirmation. */
export function CancelWorkOrderButton(props: { id: number; size?: 'small' | 'middle' }) {
  const { t } = useTranslation('work-orders');
  const cancel = useCancelWorkOrder();
  return (
    <Popconfirm
      title={t('cancel.confirm')}
      okText={t('cancel.ok')}
      cancelText={t('cancel.keep')}
      // eslint-disable-next-line @typescript-eslint/no-misused-promises -- antd's Popconfirm awaits it (OK spins until it settles), though typed void; it settles its own failures
      onConfirm={async () => {
        try {
          await cancel.mutateAsync(props.id);
          showSuccess(t('cancel.done'));
        } catch {
          // the request layer has shown why
        }
      }}
    >
      <Button size={props.size} danger loading={cancel.isPending}>
        {t('cancel.button')}
      </Button>
    </Popconfirm>
  );
}
