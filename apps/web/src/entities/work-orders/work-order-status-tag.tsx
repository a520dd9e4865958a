import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TWorkOrderStatus } from '@proxy/contract';

const COLORS: Record<TWorkOrderStatus, string> = {
  open: 'processing',
  answered: 'success',
  closed: 'default',
  cancelled: 'warning',
};

/** A work order's status as a coloured tag (open, answered, closed, cancelled). */
export function WorkOrderStatusTag({ status }: { status: TWorkOrderStatus }) {
  const { t } = useTranslation('common');
  return (
    <Tag color={COLORS[status]} data-testid="work-order-status">
      {t(`workOrder.status.${status}`)}
    </Tag>
  );
}
