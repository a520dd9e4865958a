import { useState } from 'react';
import {
  Button,
  Card,
  Descriptions,
  Empty,
  Flex,
  Result,
  Space,
  Table,
  Tabs,
  Tag,
  Tooltip,
  Typography,
  type TableColumnsType,
} from 'antd';
import { ArrowLeftOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import {
  formatYuan,
  type TAdminMailKind,
  type TAdminUserDetail,
  type TAdminUserInvitee,
  type TAdminUserProxy,
  type TAdminUserSession,
  type TLedgerLine,
  type TPayOrder,
} from '@proxy/contract';
import { formatBytes, formatDateTimeSeconds, formatSignedYuan } from '../../../lib/format';
import { confirmAction, showSuccess } from '../../../lib/message';
import { usePaging } from '../../../lib/use-paging';
import { describeUserAgent } from '../../../lib/user-agent';
import { useUserInfo } from '../../../entities/users/user-info';
import {
  useAdminUser,
  useAdminUserInvitees,
  useAdminUserLedger,
  useAdminUserOrders,
  useAdminUserProxies,
  useAdminUserSessions,
  useEndUserSession,
  useSendUserMail,
  useSetOperator,
  useSetUserStatus,
} from '../api/admin-users';
import { AdjustBalanceModal } from './adjust-balance-modal';
import { UserStatusTag } from './user-status-tag';

/** The account's statement: every balance movement, newest first. */
function StatementTable(props: { userId: number }) {
  const { t } = useTranslation('admin-users');
  const paging = usePaging();
  const ledger = useAdminUserLedger(props.userId, paging.page, paging.pageSize);
  const money = (v: number) => (v === 0 ? '—' : formatSignedYuan(v));
  const columns: TableColumnsType<TLedgerLine> = [
    { title: t('ledger.time'), dataIndex: 'created_at', width: 170, render: formatDateTimeSeconds },
    {
      title: t('ledger.reason'),
      dataIndex: 'reason',
      width: 130,
      render: (v: string) => t(`common:ledgerReasons.${v}`, { defaultValue: v }),
    },
    { title: t('ledger.amount'), dataIndex: 'amount', align: 'right', render: money },
    { title: t('ledger.frozen'), dataIndex: 'frozen_amount', align: 'right', render: money },
    {
      title: t('ledger.balanceAfter'),
      dataIndex: 'balance_after',
      align: 'right',
      render: (v: number) => formatYuan(v),
    },
    { title: t('ledger.reference'), dataIndex: 'reference', render: (v: string | null) => v ?? '—' },
  ];
  return (
    <Table<TLedgerLine>
      rowKey="id"
      size="small"
      data-testid="admin-user-ledger"
      columns={columns}
      dataSource={ledger.data?.records ?? []}
      loading={ledger.isFetching}
      locale={{ emptyText: <Empty description={t('ledger.empty')} /> }}
      pagination={paging.pagination(ledger.data?.total)}
      scroll={{ x: 800 }}
    />
  );
}

/** The account's recharge orders. */
function OrdersTable(props: { userId: number }) {
  const { t } = useTranslation('admin-users');
  const paging = usePaging();
  const orders = useAdminUserOrders(props.userId, paging.page, paging.pageSize);
  const columns: TableColumnsType<TPayOrder> = [
    { title: t('orders.id'), dataIndex: 'order_id' },
    { title: t('orders.method'), dataIndex: 'method', width: 120 },
    {
      title: t('orders.status'),
      dataIndex: 'status',
      width: 120,
      render: (v: string) => <Tag>{t(`orderStatus.${v}`, { defaultValue: v })}</Tag>,
    },
    { title: t('orders.amount'), dataIndex: 'amount', align: 'right', render: (v: number) => formatYuan(v) },
    { title: t('orders.value'), dataIndex: 'value', align: 'right', render: (v: number) => formatYuan(v) },
    { title: t('orders.createdAt'), dataIndex: 'created_at', width: 170, render: formatDateTimeSeconds },
    { title: t('orders.paidAt'), dataIndex: 'paid_at', width: 170, render: formatDateTimeSeconds },
  ];
  return (
    <Table<TPayOrder>
      rowKey="order_id"
      size="small"
      columns={columns}
      dataSource={orders.data?.records ?? []}
      loading={orders.isFetching}
      locale={{ emptyText: <Empty description={t('orders.empty')} /> }}
      pagination={paging.pagination(orders.data?.total)}
      scroll={{ x: 900 }}
    />
  );
}

/** The account's proxies (deleted ones too): product, area, status, expiry and traffic used. */
function ProxiesTable(props: { userId: number }) {
  const { t } = useTranslation('admin-users');
  const paging = usePaging();
  const proxies = useAdminUserProxies(props.userId, paging.page, paging.pageSize);
  const columns: TableColumnsType<TAdminUserProxy> = [
    {
      title: t('proxies.username'),
      dataIndex: 'username',
      render: (v: string) => <Typography.Text copyable>{v}</Typography.Text>,
    },
    {
      title: t('proxies.product'),
      key: 'product',
      render: (_, p) =>
        `${t(`proxies.categories.${p.category}`)} · ${t(`proxies.products.${p.product}`)} · ${t(`proxies.billings.${p.billing}`)}`,
    },
    {
      title: t('proxies.area'),
      key: 'area',
      render: (_, p) => [p.country.toUpperCase(), p.state, p.city].filter(Boolean).join(' / '),
    },
    {
      title: t('proxies.status'),
      dataIndex: 'status',
      width: 110,
      render: (v: TAdminUserProxy['status']) => (
        <Tag color={v === 'enabled' ? 'success' : v === 'deleted' ? 'default' : 'warning'}>
          {t(`proxies.statuses.${v}`)}
        </Tag>
      ),
    },
    { title: t('proxies.expiresAt'), dataIndex: 'expires_at', width: 170, render: formatDateTimeSeconds },
    {
      title: t('proxies.traffic'),
      key: 'traffic',
      align: 'right',
      render: (_, p) =>
        p.traffic_limit === null
          ? formatBytes(p.traffic_used)
          : `${formatBytes(p.traffic_used)} / ${formatBytes(p.traffic_limit)}`,
    },
  ];
  return (
    <Table<TAdminUserProxy>
      rowKey="token_id"
      size="small"
      data-testid="admin-user-proxies"
      columns={columns}
      dataSource={proxies.data?.records ?? []}
      loading={proxies.isFetching}
      locale={{ emptyText: <Empty description={t('proxies.empty')} /> }}
      pagination={paging.pagination(proxies.data?.total)}
      scroll={{ x: 1000 }}
    />
  );
}

/** The account's open sessions, each of which the operator can end. */
function SessionsTable(props: { userId: number }) {
  const { t } = useTranslation('admin-users');
  const paging = usePaging();
  const sessions = useAdminUserSessions(props.userId, paging.page, paging.pageSize);
  const end = useEndUserSession(props.userId);
  const columns: TableColumnsType<TAdminUserSession> = [
    // As the customer sees it ("Chrome 156 · Linux"); the raw header on hover.
    {
      title: t('sessions.device'),
      dataIndex: 'user_agent',
      ellipsis: true,
      render: (v: string) => <DeviceName userAgent={v} />,
    },
    { title: t('sessions.ip'), dataIndex: 'ip', width: 160, render: (v: string) => v || '—' },
    { title: t('sessions.method'), dataIndex: 'method', width: 120, render: (v: string) => t(`sessions.methods.${v}`) },
    { title: t('sessions.createdAt'), dataIndex: 'created_at', width: 170, render: formatDateTimeSeconds },
    { title: t('sessions.lastUsedAt'), dataIndex: 'last_used_at', width: 170, render: formatDateTimeSeconds },
    {
      title: t('sessions.actions'),
      key: 'actions',
      width: 110,
      render: (_, session) => (
        <Button
          size="small"
          danger
          data-testid={`end-session-${session.id}`}
          onClick={() =>
            confirmAction({
              title: t('sessions.endConfirm'),
              content: t('sessions.endText'),
              isDanger: true,
              onOk: async () => {
                // A failure is toasted by the request layer.
                const isEnded = await end.mutateAsync(session.id).then(
                  () => true,
                  () => false,
                );
                if (isEnded) showSuccess(t('sessions.ended'));
              },
            })
          }
        >
          {t('sessions.end')}
        </Button>
      ),
    },
  ];
  return (
    <Table<TAdminUserSession>
      rowKey="id"
      size="small"
      data-testid="admin-user-sessions"
      columns={columns}
      dataSource={sessions.data?.records ?? []}
      loading={sessions.isFetching}
      locale={{ emptyText: <Empty description={t('sessions.empty')} /> }}
      pagination={paging.pagination(sessions.data?.total)}
      scroll={{ x: 900 }}
    />
  );
}

/** The accounts this one invited, with full e-mails and links to their pages. */
function InviteesTable(props: { userId: number }) {
  const { t } = useTranslation('admin-users');
  const paging = usePaging();
  const invitees = useAdminUserInvitees(props.userId, paging.page, paging.pageSize);
  const columns: TableColumnsType<TAdminUserInvitee> = [
    {
      title: t('fields.account'),
      dataIndex: 'email',
      render: (v: string, row) => <Link to={`/admin/users/${row.user_id}`}>{v}</Link>,
    },
    { title: t('fields.username'), dataIndex: 'username' },
    {
      title: t('fields.status'),
      dataIndex: 'status',
      width: 110,
      render: (v: TAdminUserInvitee['status']) => <UserStatusTag status={v} />,
    },
    {
      title: t('fields.totalRecharge'),
      dataIndex: 'total_balance',
      align: 'right',
      render: (v: number) => formatYuan(v),
    },
    { title: t('fields.createdAt'), dataIndex: 'created_at', width: 170, render: formatDateTimeSeconds },
  ];
  return (
    <Table<TAdminUserInvitee>
      rowKey="user_id"
      size="small"
      data-testid="admin-user-invitees"
      columns={columns}
      dataSource={invitees.data?.records ?? []}
      loading={invitees.isFetching}
      locale={{ emptyText: <Empty description={t('invitees.empty')} /> }}
      pagination={paging.pagination(invitees.data?.total)}
      scroll={{ x: 800 }}
    />
  );
}

/** A session's device as the customer's own list names it, the raw User-Agent on hover. */
function DeviceName(props: { userAgent: string }) {
  const device = describeUserAgent(props.userAgent);
  const name = [device.browser, device.os].filter(Boolean).join(' · ') || props.userAgent || '—';
  return props.userAgent ? (
    <Tooltip title={props.userAgent}>
      <span data-testid="admin-session-device">{name}</span>
    </Tooltip>
  ) : (
    <span data-testid="admin-session-device">—</span>
  );
}

/**
 * Sends a password reset code, after a confirmation. No verification e-mail is offered: every address is verified
 * before its account exists or changes (a code sent there, or a provider's verified address), so the account shows
 * that instead.
 */
function MailButtons(props: { user: TAdminUserDetail }) {
  const { t } = useTranslation('admin-users');
  const send = useSendUserMail(props.user.user_id);
  const ask = (kind: TAdminMailKind) =>
    confirmAction({
      title: t(`mail.${kind}Confirm`, { email: props.user.email }),
      onOk: async () => {
        // A refusal (throttle, disabled account) is toasted by the request layer with its reason.
        const sent = await send.mutateAsync(kind).catch(() => null);
        if (sent) showSuccess(t('mail.sent', { email: sent.email }));
      },
    });
  return (
    <>
      <Button
        disabled={props.user.status !== 'active'}
        data-testid="admin-user-mail-reset"
        onClick={() => ask('password_reset')}
      >
        {t('mail.password_reset')}
      </Button>
      <Tooltip title={t('mail.verifiedWhy')}>
        <Tag color="success" data-testid="admin-user-email-verified">
          {t('mail.verified')}
        </Tag>
      </Tooltip>
    </>
  );
}

/** Disable or enable, grant or revoke the operator role, adjust the balance (never one's own status or role). */
function UserActions(props: { user: TAdminUserDetail; onAdjust: () => void }) {
  const { t } = useTranslation('admin-users');
  const { user } = props;
  const me = useUserInfo().data;
  const setStatus = useSetUserStatus(user.user_id);
  const setOperator = useSetOperator(user.user_id);
  const isSelf = me?.user_id === user.user_id;
  const nextStatus = user.status === 'active' ? 'disabled' : 'active';
  return (
    <Space wrap>
      <Button type="primary" onClick={props.onAdjust} data-testid="admin-user-adjust">
        {t('actions.adjust')}
      </Button>
      <Button
        danger={nextStatus === 'disabled'}
        disabled={isSelf}
        loading={setStatus.isPending}
        data-testid="admin-user-status"
        onClick={() =>
          confirmAction({
            title: t(nextStatus === 'disabled' ? 'actions.disableConfirm' : 'actions.enableConfirm', {
              email: user.email,
            }),
            content: nextStatus === 'disabled' ? t('actions.disableText') : undefined,
            isDanger: nextStatus === 'disabled',
            onOk: () => setStatus.mutateAsync(nextStatus),
          })
        }
      >
        {t(nextStatus === 'disabled' ? 'actions.disable' : 'actions.enable')}
      </Button>
      <Button
        disabled={isSelf}
        loading={setOperator.isPending}
        data-testid="admin-user-role"
        onClick={() =>
          confirmAction({
            title: t(user.is_admin ? 'actions.revokeConfirm' : 'actions.grantConfirm', { email: user.email }),
            onOk: () => setOperator.mutateAsync(!user.is_admin),
          })
        }
      >
        {t(user.is_admin ? 'actions.revoke' : 'actions.grant')}
      </Button>
      <MailButtons user={user} />
    </Space>
  );
}

/** /admin/users/:id: one account's balances, counts, statement, orders, proxies, sessions and invitees, with the operator's actions. */
export default function UserPage() {
  const { t } = useTranslation('admin-users');
  const id = Number(useParams().id);
  const isValidId = Number.isSafeInteger(id) && id > 0;
  const detail = useAdminUser(isValidId ? id : 0);
  const [isAdjusting, setIsAdjusting] = useState(false);
  const back = (
    <Link to="/admin/users">
      <Button type="text" icon={<ArrowLeftOutlined />}>
        {t('backToList')}
      </Button>
    </Link>
  );
  if (!isValidId || detail.isError) {
    return <Result status="404" title={t('notFound')} extra={back} />;
  }
  const user = detail.data;
  return (
    <Flex vertical gap={16}>
      <Card
        loading={!user}
        title={
          <Flex gap={8} align="center">
            {back}
            <Typography.Text strong>{user?.email}</Typography.Text>
            {user && <UserStatusTag status={user.status} />}
            {user?.is_admin && <Tag color="purple">{t('operator')}</Tag>}
          </Flex>
        }
        extra={
          <Button icon={<ReloadOutlined />} loading={detail.isFetching} onClick={() => void detail.refetch()}>
            {t('refresh')}
          </Button>
        }
      >
        {user && (
          <Flex vertical gap={16}>
            <UserActions user={user} onAdjust={() => setIsAdjusting(true)} />
            <Descriptions
              size="small"
              bordered
              column={{ xs: 1, md: 2, xl: 3 }}
              data-testid="admin-user-detail"
              items={[
                { key: 'id', label: t('fields.id'), children: user.user_id },
                { key: 'username', label: t('fields.username'), children: user.username },
                {
                  key: 'balance',
                  label: t('fields.balance'),
                  children: <span data-testid="admin-user-balance">{formatYuan(user.balance)}</span>,
                },
                { key: 'frozen', label: t('fields.frozen'), children: formatYuan(user.frozen_balance) },
                { key: 'total', label: t('fields.totalRecharge'), children: formatYuan(user.total_balance) },
                { key: 'invite', label: t('fields.inviteCode'), children: user.invite_code },
                { key: 'inviter', label: t('fields.inviter'), children: user.inviter_email ?? '—' },
                { key: 'proxies', label: t('fields.liveProxies'), children: user.live_proxies },
                { key: 'orders', label: t('fields.rechargeOrders'), children: user.recharge_orders },
                { key: 'invitees', label: t('fields.invitees'), children: user.invitees },
                { key: 'sessions', label: t('fields.sessions'), children: user.sessions },
                { key: 'created', label: t('fields.createdAt'), children: formatDateTimeSeconds(user.created_at) },
                { key: 'login', label: t('fields.lastLogin'), children: formatDateTimeSeconds(user.last_login_at) },
              ]}
            />
          </Flex>
        )}
      </Card>
      {user && (
        <Card>
          <Tabs
            items={[
              { key: 'ledger', label: t('tabs.ledger'), children: <StatementTable userId={user.user_id} /> },
              { key: 'orders', label: t('tabs.orders'), children: <OrdersTable userId={user.user_id} /> },
              { key: 'proxies', label: t('tabs.proxies'), children: <ProxiesTable userId={user.user_id} /> },
              { key: 'sessions', label: t('tabs.sessions'), children: <SessionsTable userId={user.user_id} /> },
              { key: 'invitees', label: t('tabs.invitees'), children: <InviteesTable userId={user.user_id} /> },
            ]}
          />
        </Card>
      )}
      {user && (
        <AdjustBalanceModal
          userId={user.user_id}
          balance={user.balance}
          isOpen={isAdjusting}
          onClose={() => setIsAdjusting(false)}
        />
      )}
    </Flex>
  );
}
