import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TSupplyStatus } from '@proxy/contract';

const STATUS_COLORS: Record<TSupplyStatus, string> = {
  pending: 'processing',
  processing: 'blue',
  success: 'success',
  cancelled: 'default',
  failed: 'error',
  refunded: 'warning',
};

/** A supply state of spec section 4 as a coloured tag. */
export function SupplyStatusTag(props: { status: TSupplyStatus }) {
  const { t } = useTranslation('supply');
  return (
    <Tag color={STATUS_COLORS[props.status]} data-testid="supply-status">
      {t(`status.${props.status}`)}
    </Tag>
  );
}
