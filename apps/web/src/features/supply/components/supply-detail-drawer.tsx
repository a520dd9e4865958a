import { Descriptions, Drawer, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatYuan } from '@proxy/contract';
import { formatDateTimeSeconds } from '../../../lib/format';
import { useSupplyDetail } from '../api/supply-detail';
import { SupplyStatusTag } from './supply-status-tag';

/** One request's every field (spec section 3), loaded fresh when the drawer opens. */
export function SupplyDetailDrawer(props: { id: number | null; onClose: () => void }) {
  const { t } = useTranslation('supply');
  const { data, isPending } = useSupplyDetail(props.id);
  const none = t('detail.none');
  return (
    <Drawer
      open={props.id !== null}
      onClose={props.onClose}
      title={props.id === null ? '' : t('detail.title', { id: props.id })}
      size={520}
    >
      {isPending || !data ? (
        <Skeleton active />
      ) : (
        <Descriptions column={1} bordered size="small" data-testid="supply-detail">
          <Descriptions.Item label={t('detail.requestId')}>{data.request_id}</Descriptions.Item>
          <Descriptions.Item label={t('detail.status')}>
            <SupplyStatusTag status={data.status} />
          </Descriptions.Item>
          <Descriptions.Item label={t('detail.type')}>{t(`form.types.${data.type}`)}</Descriptions.Item>
          <Descriptions.Item label={t('detail.product')}>{t(`form.products.${data.product}`)}</Descriptions.Item>
          <Descriptions.Item label={t('detail.network')}>{data.network}</Descriptions.Item>
          <Descriptions.Item label={t('detail.amount')}>
            {t(`amount.${data.type}`, { amount: data.amount })}
          </Descriptions.Item>
          {data.days !== null ? <Descriptions.Item label={t('detail.days')}>{data.days}</Descriptions.Item> : null}
          <Descriptions.Item label={t('detail.region')}>{`${data.region_name} (${data.region})`}</Descriptions.Item>
          <Descriptions.Item label={t('detail.waitDays')}>{data.wait_days}</Descriptions.Item>
          <Descriptions.Item label={t('detail.deadline')}>{formatDateTimeSeconds(data.deadline)}</Descriptions.Item>
          <Descriptions.Item label={t('detail.cost')}>{formatYuan(data.cost)}</Descriptions.Item>
          <Descriptions.Item label={t('detail.remark')}>{data.remark || none}</Descriptions.Item>
          <Descriptions.Item label={t('detail.contactEmail')}>{data.contact_email}</Descriptions.Item>
          {data.fail_reason ? (
            <Descriptions.Item label={t('detail.failReason')}>{data.fail_reason}</Descriptions.Item>
          ) : null}
          <Descriptions.Item label={t('detail.submitTime')}>
            {formatDateTimeSeconds(data.submit_time)}
          </Descriptions.Item>
          <Descriptions.Item label={t('detail.completedTime')}>
            {data.completed_time ? formatDateTimeSeconds(data.completed_time) : none}
          </Descriptions.Item>
          <Descriptions.Item label={t('detail.workOrder')}>{data.work_order_id ?? none}</Descriptions.Item>
        </Descriptions>
      )}
    </Drawer>
  );
}
