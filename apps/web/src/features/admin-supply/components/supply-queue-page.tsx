import { useState } from 'react';
import {
  Button,
  Card,
  Empty,
  Flex,
  Form,
  Input,
  Modal,
  Select,
  Space,
  Table,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  SUPPLY_REASON_MAX,
  SUPPLY_STATUSES,
  ZSupplyFailBody,
  formatYuan,
  type TSupplyAdminRequest,
  type TSupplyStatus,
} from '@proxy/contract';
import { zodRule } from '../../../lib/form-rules';
import { formatDateTimeMinutes } from '../../../lib/format';
import { confirmAction, showSuccess } from '../../../lib/message';
import { usePaging } from '../../../lib/use-paging';
import { completeSupply } from '../api/complete-supply';
import { failSupply } from '../api/fail-supply';
import { refreshSupplyQueue, useSupplyQueue } from '../api/supply-queue';
import { takeSupply } from '../api/take-supply';

const STATUS_COLORS: Record<TSupplyStatus, string> = {
  pending: 'processing',
  processing: 'blue',
  success: 'success',
  cancelled: 'default',
  failed: 'error',
  refunded: 'warning',
};

/** The dialog asking an operator for the reason of a failure. */
function FailDialog(props: { request: TSupplyAdminRequest | null; onClose: () => void }) {
  const { t } = useTranslation('admin-supply');
  const [form] = Form.useForm<{ reason: string }>();
  const [isBusy, setIsBusy] = useState(false);
  const { request } = props;
  const submit = async ({ reason }: { reason: string }) => {
    if (!request) return;
    setIsBusy(true);
    try {
      await failSupply(request.request_id, reason.trim());
      showSuccess(t('fail.done', { id: request.request_id }));
      form.resetFields();
      props.onClose();
      void refreshSupplyQueue();
    } catch {
      // Toasted by the request layer.
    } finally {
      setIsBusy(false);
    }
  };
  return (
    <Modal
      open={request !== null}
      title={request ? t('fail.title', { id: request.request_id }) : ''}
      okText={t('fail.ok')}
      okButtonProps={{ danger: true, loading: isBusy }}
      onOk={() => form.submit()}
      onCancel={props.onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={(values) => void submit(values)}>
        <Form.Item name="reason" label={t('fail.reason')} rules={[zodRule(ZSupplyFailBody.shape.reason)]}>
          <Input.TextArea rows={3} maxLength={SUPPLY_REASON_MAX} showCount data-testid="supply-fail-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** /admin/supply: every customer's supply requests, open ones first; take, complete (allocation) or fail (refund). */
export default function SupplyQueuePage() {
  const { t } = useTranslation('admin-supply');
  const paging = usePaging(20);
  const [status, setStatus] = useState<TSupplyStatus | undefined>();
  const [failing, setFailing] = useState<TSupplyAdminRequest | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);
  const queue = useSupplyQueue({ page: paging.page, pageSize: paging.pageSize, status });

  const run = async (id: number, action: () => Promise<unknown>, done: string) => {
    setBusyId(id);
    try {
      await action();
      showSuccess(done);
    } catch {
      // Toasted by the request layer (e.g. what the region lacks).
    } finally {
      setBusyId(null);
      void refreshSupplyQueue();
    }
  };

  const take = (row: TSupplyAdminRequest) =>
    run(row.request_id, () => takeSupply(row.request_id), t('take.done', { id: row.request_id }));
  // Taking a request the region cannot fill now is allowed (stock may be on its way), but only once the operator has
  // read what is missing; the customer can still revoke it until it is completed.
  const askTake = (row: TSupplyAdminRequest) => {
    const needed = row.type === 'ip' ? row.amount : 1;
    if (row.available >= needed) return void take(row);
    confirmAction({
      title: t('take.shortTitle', { id: row.request_id }),
      content: t('take.shortContent', { region: row.region.toUpperCase(), needed, available: row.available }),
      okText: t('take.shortOk'),
      onOk: () => take(row),
    });
  };

  const askComplete = (row: TSupplyAdminRequest) =>
    confirmAction({
      title: t('complete.confirmTitle', { id: row.request_id }),
      content: t('complete.confirmContent', { cost: formatYuan(row.cost), email: row.user_email }),
      onOk: () => run(row.request_id, () => completeSupply(row.request_id), t('complete.done', { id: row.request_id })),
    });

  const columns: TableColumnsType<TSupplyAdminRequest> = [
    { title: t('columns.id'), dataIndex: 'request_id', width: 70, render: (id: number) => `#${id}` },
    {
      // Long addresses are cut with an ellipsis (the whole one on hover); the contact only when it is another one.
      title: t('columns.customer'),
      dataIndex: 'user_email',
      width: 180,
      render: (_, row) => (
        <Flex vertical style={{ maxWidth: 164 }}>
          <Typography.Text ellipsis={{ tooltip: row.user_email }}>{row.user_email}</Typography.Text>
          {row.contact_email && row.contact_email !== row.user_email ? (
            <Typography.Text type="secondary" style={{ fontSize: 12 }} ellipsis={{ tooltip: row.contact_email }}>
              {t('contact', { email: row.contact_email })}
            </Typography.Text>
          ) : null}
        </Flex>
      ),
    },
    {
      title: t('columns.what'),
      key: 'what',
      render: (_, row) => (
        <Flex vertical>
          <Typography.Text>{`${t(`products.${row.product}`)} · ${row.network}`}</Typography.Text>
          <Typography.Text type="secondary">
            {t(`amount.${row.type}`, { amount: row.amount, days: row.days ?? 0 })}
          </Typography.Text>
          {row.remark ? (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('remark', { remark: row.remark })}
            </Typography.Text>
          ) : null}
          {row.fail_reason ? (
            <Typography.Text type="danger" style={{ fontSize: 12 }}>
              {t('failReason', { reason: row.fail_reason })}
            </Typography.Text>
          ) : null}
        </Flex>
      ),
    },
    {
      title: t('columns.region'),
      dataIndex: 'region',
      render: (_, row) => (
        <Flex vertical style={{ maxWidth: 140 }}>
          <Typography.Text>{row.region_name}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {row.region.toUpperCase()}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('columns.stock'),
      dataIndex: 'available',
      render: (value: number) => <Typography.Text type={value > 0 ? undefined : 'danger'}>{value}</Typography.Text>,
    },
    { title: t('columns.cost'), dataIndex: 'cost', render: (value: number) => formatYuan(value) },
    {
      title: t('columns.status'),
      dataIndex: 'status',
      render: (value: TSupplyStatus) => (
        <Tag color={STATUS_COLORS[value]} data-testid="supply-status">
          {t(`status.${value}`)}
        </Tag>
      ),
    },
    // Both times in one column (the header names them), so that the table fits a laptop screen beside the actions.
    {
      title: t('columns.dates'),
      key: 'dates',
      render: (_, row) => (
        <Flex vertical style={{ whiteSpace: 'nowrap' }}>
          <Typography.Text>{formatDateTimeMinutes(row.submit_time)}</Typography.Text>
          <Typography.Text type="secondary">{formatDateTimeMinutes(row.deadline)}</Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('columns.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, row) => {
        const isOpen = row.status === 'pending' || row.status === 'processing';
        const isBusy = busyId === row.request_id;
        return (
          <Space size={4}>
            {row.status === 'pending' ? (
              <Button
                size="small"
                type="primary"
                loading={isBusy}
                onClick={() => askTake(row)}
                data-testid={`supply-take-${row.request_id}`}
              >
                {t('take.action')}
              </Button>
            ) : null}
            {row.status === 'processing' ? (
              <Button
                size="small"
                type="primary"
                loading={isBusy}
                onClick={() => askComplete(row)}
                data-testid={`supply-complete-${row.request_id}`}
              >
                {t('complete.action')}
              </Button>
            ) : null}
            {isOpen ? (
              <Button
                size="small"
                danger
                disabled={isBusy}
                onClick={() => setFailing(row)}
                data-testid={`supply-fail-${row.request_id}`}
              >
                {t('fail.action')}
              </Button>
            ) : null}
          </Space>
        );
      },
    },
  ];

  return (
    <Card
      title={t('title')}
      extra={
        <Flex gap={8}>
          <Select<TSupplyStatus | ''>
            style={{ width: 150 }}
            value={status ?? ''}
            onChange={(value) => {
              setStatus(value || undefined);
              paging.toFirstPage();
            }}
            options={[
              { value: '', label: t('allStatuses') },
              ...SUPPLY_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) })),
            ]}
            aria-label={t('columns.status')}
          />
          <Button icon={<ReloadOutlined />} loading={queue.isFetching} onClick={() => void queue.refetch()}>
            {t('refresh')}
          </Button>
        </Flex>
      }
    >
      <Table<TSupplyAdminRequest>
        rowKey="request_id"
        size="middle"
        columns={columns}
        dataSource={queue.data?.records ?? []}
        loading={queue.isFetching}
        locale={{ emptyText: <Empty description={t('empty')} /> }}
        scroll={{ x: 'max-content' }}
        pagination={paging.pagination(queue.data?.total, { showTotal: (total) => t('total', { count: total }) })}
      />
      <FailDialog request={failing} onClose={() => setFailing(null)} />
    </Card>
  );
}
