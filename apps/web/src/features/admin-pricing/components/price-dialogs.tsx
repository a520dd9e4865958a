import {
  Drawer,
  Empty,
  Form,
  InputNumber,
  Modal,
  Table,
  Tag,
  Typography,
  type FormInstance,
  type TableColumnsType,
} from 'antd';
import { useTranslation } from 'react-i18next';
import {
  ADMIN_AMOUNT_MAX_FEN,
  formatFen,
  yuanToFen,
  type TAdminPrice,
  type TPriceKey,
  type TPriceVersion,
  type TVersionStatus,
} from '@proxy/contract';
import { formatDateTimeMinutes } from '../../../lib/format';
import { showSuccess } from '../../../lib/message';
import { getServerIssues } from '../../../lib/server-issues';
import { usePaging } from '../../../lib/use-paging';
import { useCreatePriceVersions, usePriceHistory } from '../api/admin-pricing';
import { EffectiveTimeField, effectiveAtOf, type TEffectiveValues } from './effective-time-field';

const STATUS_COLORS: Record<TVersionStatus, string> = { scheduled: 'gold', current: 'blue', past: 'default' };

/** A version's state as a tag. */
export function VersionStatusTag(props: { status: TVersionStatus }) {
  const { t } = useTranslation('admin-pricing');
  return <Tag color={STATUS_COLORS[props.status]}>{t(`status.${props.status}`)}</Tag>;
}

type TPriceForm = TEffectiveValues & { yuan: number };

/** Shows the server's messages (already in the user's language) under the form fields they name. */
export function markIssues(
  form: FormInstance,
  error: unknown,
  fieldByPath: Record<string, string | (string | number)[]>,
): void {
  const fields = getServerIssues(error).flatMap((issue) => {
    const name = fieldByPath[issue.path];
    return name === undefined ? [] : [{ name, errors: [issue.message] }];
  });
  if (fields.length > 0) form.setFields(fields);
}

/** A new version of one price: the amount in yuan and when it takes effect. */
export function PriceEditModal(props: { price: TAdminPrice | null; onClose: () => void }) {
  const { t } = useTranslation('admin-pricing');
  const [form] = Form.useForm<TPriceForm>();
  const create = useCreatePriceVersions();
  const price = props.price;
  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values || !price) return;
    try {
      const { versions } = await create.mutateAsync({
        prices: [{ item: price.key, amount_fen: yuanToFen(values.yuan) }],
        effective_at: effectiveAtOf(values),
      });
      const [saved] = versions;
      showSuccess(
        saved?.status === 'scheduled'
          ? t('savedLater', { version: saved.id, time: formatDateTimeMinutes(saved.effective_at) })
          : t('savedNow', { version: saved?.id ?? '' }),
      );
      props.onClose();
    } catch (error) {
      // The server names the fields at fault by the call's names; the form's are the yuan input and the time.
      markIssues(form, error, { 'prices.0.amount_fen': 'yuan', effective_at: 'at' });
    }
  };
  return (
    <Modal
      open={price !== null}
      title={price ? t('editTitle', { product: t(`keys.${price.key}`) }) : ''}
      okText={t('save')}
      cancelText={t('cancel')}
      confirmLoading={create.isPending}
      onOk={() => void submit()}
      onCancel={props.onClose}
      destroyOnHidden
    >
      {price && (
        <Form<TPriceForm>
          form={form}
          layout="vertical"
          preserve={false}
          initialValues={{ yuan: price.amount_fen / 100, when: 'now' }}
        >
          <Typography.Paragraph type="secondary">
            {t('currentPrice', { price: formatFen(price.amount_fen), unit: t(`units.${price.key}`) })}
          </Typography.Paragraph>
          <Form.Item
            name="yuan"
            label={t('newPrice')}
            rules={[
              { required: true, message: t('priceRequired') },
              { type: 'number', min: 0.01, message: t('priceMin') },
            ]}
          >
            <InputNumber<number>
              min={0.01}
              max={ADMIN_AMOUNT_MAX_FEN / 100}
              precision={2}
              step={1}
              prefix="¥"
              style={{ width: 200 }}
            />
          </Form.Item>
          <EffectiveTimeField />
        </Form>
      )}
    </Modal>
  );
}

/** The versions of one price, newest first, with their state. */
export function PriceHistoryDrawer(props: { priceKey: TPriceKey | null; onClose: () => void }) {
  const { t } = useTranslation('admin-pricing');
  const paging = usePaging(10);
  const history = usePriceHistory({ key: props.priceKey, page: paging.page, pageSize: paging.pageSize });
  const columns: TableColumnsType<TPriceVersion> = [
    { title: t('columns.version'), dataIndex: 'id' },
    { title: t('columns.amount'), dataIndex: 'amount_fen', render: (v: number) => formatFen(v) },
    { title: t('columns.effectiveAt'), dataIndex: 'effective_at', render: formatDateTimeMinutes },
    { title: t('columns.status'), dataIndex: 'status', render: (v: TVersionStatus) => <VersionStatusTag status={v} /> },
    { title: t('columns.createdBy'), dataIndex: 'created_by', render: (v: string | null) => v ?? t('installDefaults') },
  ];
  return (
    <Drawer
      open={props.priceKey !== null}
      onClose={props.onClose}
      size="large"
      title={props.priceKey ? t('historyTitle', { product: t(`keys.${props.priceKey}`) }) : ''}
    >
      <Table<TPriceVersion>
        rowKey="id"
        scroll={{ x: 'max-content' }}
        size="small"
        columns={columns}
        dataSource={history.data?.records ?? []}
        loading={history.isFetching}
        locale={{ emptyText: <Empty description={t('emptyHistory')} /> }}
        pagination={paging.pagination(history.data?.total)}
      />
    </Drawer>
  );
}
