import { useState } from 'react';
import {
  Button,
  Card,
  DatePicker,
  Empty,
  Flex,
  Form,
  Input,
  InputNumber,
  Modal,
  Select,
  Space,
  Table,
  Tabs,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import {
  PAY_METHODS,
  PAYMENT_STATUSES,
  USDT_NETWORKS,
  formatYuan,
  type TAdminPayOrder,
  type TUsdtNetwork,
  type TUsdtTransfer,
} from '@proxy/contract';
import { formatDateTimeSeconds } from '../../../lib/format';
import { markServerIssues } from '../../../lib/server-issues';
import { confirmAction, showSuccess } from '../../../lib/message';
import { usePaging } from '../../../lib/use-paging';
import {
  useAdminOrders,
  useAssignTransfer,
  useReconcileOrder,
  useReverseOrder,
  useUnmatchedTransfers,
  type TOrderFilters,
} from '../api/admin-payments';

const STATUS_COLORS = {
  pending: 'processing',
  success: 'success',
  failure: 'error',
  cancelled: 'default',
  timeout: 'warning',
} as const;

/**
 * Reverses a paid recharge that was refunded outside: the reason is kept with
 * the order; the answer says what came back from the balance and what is left
 * as debt.
 */
function ReverseModal(props: { order: TAdminPayOrder | null; onClose: () => void }) {
  const { t } = useTranslation('admin-payments');
  const [form] = Form.useForm<{ reason: string }>();
  const reverse = useReverseOrder();
  const close = () => {
    form.resetFields();
    props.onClose();
  };
  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values || !props.order) return;
    try {
      const result = await reverse.mutateAsync({ order_id: props.order.order_id, reason: values.reason.trim() });
      showSuccess(t('reverse.done', { takenBack: formatYuan(result.taken_back), debt: formatYuan(result.debt) }));
      close();
    } catch (error) {
      markServerIssues(form, error, ['reason']);
    }
  };
  return (
    <Modal
      open={props.order !== null}
      title={t('reverse.title', { id: props.order?.order_id ?? '' })}
      okText={t('reverse.ok')}
      okButtonProps={{ danger: true }}
      cancelText={t('cancel')}
      confirmLoading={reverse.isPending}
      onOk={() => void submit()}
      onCancel={close}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        {t('reverse.hint', { value: formatYuan(props.order?.value ?? 0) })}
      </Typography.Paragraph>
      <Form form={form} layout="vertical">
        <Form.Item
          name="reason"
          label={t('reverse.reason')}
          rules={[{ required: true, whitespace: true, message: t('reverse.reasonRequired') }]}
        >
          <Input.TextArea maxLength={200} showCount autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The customer filter: an id (digits) or an e-mail; the other one cleared. */
export function customerFilter(text: string): Pick<TOrderFilters, 'user_id' | 'user_email'> {
  const value = text.trim();
  if (/^[1-9]\d{0,14}$/.test(value)) return { user_id: Number(value), user_email: undefined };
  return { user_id: undefined, user_email: value || undefined };
}

/** A day range as the list takes it: [first day 00:00, the day after the last 00:00). */
export function dayRangeFilter(range: [Dayjs | null, Dayjs | null] | null): Pick<TOrderFilters, 'from' | 'to'> {
  const [start, end] = range ?? [null, null];
  return {
    from: start ? start.startOf('day').toISOString() : undefined,
    to: end ? end.add(1, 'day').startOf('day').toISOString() : undefined,
  };
}

/** Asks the provider about a pending order, after a confirmation, and says what came of it. */
function ReconcileButton(props: { order: TAdminPayOrder }) {
  const { t } = useTranslation('admin-payments');
  const reconcile = useReconcileOrder();
  return (
    <Button
      size="small"
      loading={reconcile.isPending}
      data-testid={`reconcile-${props.order.order_id}`}
      onClick={() =>
        confirmAction({
          title: t('reconcile.confirm', { id: props.order.order_id }),
          content: t('reconcile.hint'),
          onOk: async () => {
            // A refusal is toasted by the request layer with its reason.
            const answer = await reconcile.mutateAsync(props.order.order_id).catch(() => null);
            if (answer) showSuccess(t(`reconcile.results.${answer.result}`));
          },
        })
      }
    >
      {t('reconcile.action')}
    </Button>
  );
}

/** Every customer's recharge orders, with filters. */
function OrdersTab() {
  const { t } = useTranslation('admin-payments');
  const paging = usePaging(20);
  const [filters, setFilters] = useState<TOrderFilters>({});
  const [reversing, setReversing] = useState<TAdminPayOrder | null>(null);
  const orders = useAdminOrders({ page: paging.page, pageSize: paging.pageSize, filters });
  const apply = (next: TOrderFilters) => {
    setFilters(next);
    paging.toFirstPage();
  };
  const columns: TableColumnsType<TAdminPayOrder> = [
    {
      title: t('orders.id'),
      dataIndex: 'order_id',
      render: (v: string) => <Typography.Text copyable>{v}</Typography.Text>,
    },
    {
      title: t('orders.customer'),
      dataIndex: 'user_email',
      render: (_, order) => <Link to={`/admin/users/${order.user_id}`}>{order.user_email}</Link>,
    },
    { title: t('orders.method'), dataIndex: 'method', width: 120, render: (v: string) => t(`methods.${v}`) },
    {
      title: t('orders.status'),
      dataIndex: 'status',
      width: 150,
      render: (v: TAdminPayOrder['status'], order) => (
        <Flex gap={4} wrap>
          <Tag color={STATUS_COLORS[v]}>{t(`status.${v}`)}</Tag>
          {order.reversed_at && <Tag color="red">{t('reverse.tag')}</Tag>}
        </Flex>
      ),
    },
    { title: t('orders.price'), dataIndex: 'price', align: 'right', render: (v: number) => formatYuan(v) },
    { title: t('orders.value'), dataIndex: 'value', align: 'right', render: (v: number) => formatYuan(v) },
    { title: t('orders.createdAt'), dataIndex: 'created_at', width: 170, render: formatDateTimeSeconds },
    { title: t('orders.paidAt'), dataIndex: 'paid_at', width: 170, render: formatDateTimeSeconds },
    {
      title: t('orders.actions'),
      key: 'actions',
      width: 170,
      render: (_, order) => (
        <Space size={4}>
          {order.status === 'success' && !order.reversed_at && (
            <Button size="small" danger onClick={() => setReversing(order)} data-testid={`reverse-${order.order_id}`}>
              {t('reverse.action')}
            </Button>
          )}
          {order.status === 'pending' && <ReconcileButton order={order} />}
        </Space>
      ),
    },
  ];
  return (
    <Flex vertical gap={12}>
      <ReverseModal order={reversing} onClose={() => setReversing(null)} />
      <Flex gap={8} wrap role="search" aria-label={t('filters.label')}>
        <Input.Search
          allowClear
          style={{ width: 260 }}
          placeholder={t('filters.orderId')}
          aria-label={t('filters.orderId')}
          maxLength={64}
          onSearch={(v) => apply({ ...filters, order_id: v.trim() || undefined })}
        />
        <Input.Search
          allowClear
          style={{ width: 240 }}
          placeholder={t('filters.customer')}
          aria-label={t('filters.customer')}
          maxLength={254}
          onSearch={(v) => apply({ ...filters, ...customerFilter(v) })}
        />
        <Select
          allowClear
          style={{ width: 150 }}
          placeholder={t('filters.status')}
          aria-label={t('filters.status')}
          options={PAYMENT_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
          onChange={(status?: TOrderFilters['status']) => apply({ ...filters, status })}
        />
        <Select
          allowClear
          style={{ width: 170 }}
          placeholder={t('filters.method')}
          aria-label={t('filters.method')}
          options={PAY_METHODS.map((m) => ({ value: m, label: t(`methods.${m}`) }))}
          onChange={(method?: TOrderFilters['method']) => apply({ ...filters, method })}
        />
        <DatePicker.RangePicker
          aria-label={t('filters.time')}
          onChange={(range) => apply({ ...filters, ...dayRangeFilter(range) })}
          style={{ width: 260 }}
        />
      </Flex>
      <Table<TAdminPayOrder>
        rowKey="order_id"
        size="middle"
        columns={columns}
        dataSource={orders.data?.records ?? []}
        loading={orders.isFetching}
        locale={{ emptyText: <Empty description={t('orders.empty')} /> }}
        pagination={paging.pagination(orders.data?.total)}
        scroll={{ x: 1100 }}
      />
    </Flex>
  );
}

type TAssignForm = { user_id: number; amount: string };

/** Credits one transfer to a customer: who, and how many yuan (the operator decides, e.g. at the day's rate). */
function AssignModal(props: { transfer: TUsdtTransfer | null; onClose: () => void }) {
  const { t } = useTranslation('admin-payments');
  const [form] = Form.useForm<TAssignForm>();
  const assign = useAssignTransfer();
  const close = () => {
    form.resetFields();
    props.onClose();
  };
  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values || !props.transfer) return;
    try {
      await assign.mutateAsync({ id: props.transfer.id, user_id: values.user_id, amount: values.amount.trim() });
      showSuccess(t('unmatched.assigned'));
      close();
    } catch (error) {
      markServerIssues(form, error, ['user_id', 'amount']);
    }
  };
  return (
    <Modal
      open={props.transfer !== null}
      title={t('unmatched.assignTitle', { amount: props.transfer?.amount ?? '' })}
      okText={t('unmatched.assignOk')}
      cancelText={t('cancel')}
      confirmLoading={assign.isPending}
      onOk={() => void submit()}
      onCancel={close}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('unmatched.assignHint')}</Typography.Paragraph>
      <Form<TAssignForm> form={form} layout="vertical">
        <Form.Item
          name="user_id"
          label={t('unmatched.userId')}
          rules={[{ required: true, message: t('unmatched.userIdRequired') }]}
        >
          <InputNumber<number> min={1} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item
          name="amount"
          label={t('unmatched.amount')}
          rules={[
            { required: true, message: t('unmatched.amountRequired') },
            { pattern: /^(0|[1-9]\d{0,9})(\.\d{1,2})?$/, message: t('unmatched.amountFormat') },
          ]}
        >
          <Input prefix="¥" inputMode="decimal" maxLength={13} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** USDT transfers that matched no order, each to be credited to a customer. */
function UnmatchedTab() {
  const { t } = useTranslation('admin-payments');
  const paging = usePaging(20);
  const [network, setNetwork] = useState<TUsdtNetwork | undefined>(undefined);
  const [assigning, setAssigning] = useState<TUsdtTransfer | null>(null);
  const transfers = useUnmatchedTransfers({ page: paging.page, pageSize: paging.pageSize, network });
  const columns: TableColumnsType<TUsdtTransfer> = [
    { title: t('unmatched.time'), dataIndex: 'block_time', width: 170, render: formatDateTimeSeconds },
    {
      title: t('unmatched.network'),
      dataIndex: 'network',
      width: 110,
      render: (v: TUsdtNetwork) => t(`networks.${v}`),
    },
    {
      title: t('unmatched.amount'),
      dataIndex: 'amount',
      align: 'right',
      render: (v: string) => <Typography.Text strong>{v} USDT</Typography.Text>,
    },
    { title: t('unmatched.from'), dataIndex: 'from', ellipsis: true },
    {
      title: t('unmatched.tx'),
      dataIndex: 'tx_hash',
      ellipsis: true,
      render: (v: string) => <Typography.Text copyable={{ text: v }}>{v}</Typography.Text>,
    },
    { title: t('unmatched.note'), dataIndex: 'note', render: (v: string | null) => v ?? '—' },
    {
      title: t('unmatched.actions'),
      key: 'actions',
      width: 140,
      render: (_, transfer) => (
        <Button
          size="small"
          type="primary"
          onClick={() => setAssigning(transfer)}
          data-testid={`assign-${transfer.id}`}
        >
          {t('unmatched.assign')}
        </Button>
      ),
    },
  ];
  return (
    <Flex vertical gap={12}>
      <Select
        allowClear
        style={{ width: 180 }}
        placeholder={t('unmatched.network')}
        aria-label={t('unmatched.network')}
        options={USDT_NETWORKS.map((n) => ({ value: n, label: t(`networks.${n}`) }))}
        onChange={(value?: TUsdtNetwork) => {
          setNetwork(value);
          paging.toFirstPage();
        }}
      />
      <Table<TUsdtTransfer>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={transfers.data?.records ?? []}
        loading={transfers.isFetching}
        locale={{ emptyText: <Empty description={t('unmatched.empty')} /> }}
        pagination={paging.pagination(transfers.data?.total)}
        scroll={{ x: 1100 }}
      />
      <AssignModal transfer={assigning} onClose={() => setAssigning(null)} />
    </Flex>
  );
}

/** /admin/payments: recharge orders, and USDT transfers waiting to be assigned. */
export default function PaymentsPage() {
  const { t } = useTranslation('admin-payments');
  // ?tab=unmatched opens the USDT queue (the overview links there).
  const [searchParams] = useSearchParams();
  return (
    <Card title={t('title')}>
      <Tabs
        defaultActiveKey={searchParams.get('tab') === 'unmatched' ? 'unmatched' : 'orders'}
        items={[
          { key: 'orders', label: t('tabs.orders'), children: <OrdersTab /> },
          { key: 'unmatched', label: t('tabs.unmatched'), children: <UnmatchedTab /> },
        ]}
      />
    </Card>
  );
}
