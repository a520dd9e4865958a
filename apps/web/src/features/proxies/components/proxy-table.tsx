import { Flex, Progress, Switch, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { PROXY_REMARK_MAX, type TProxyToken } from '@proxy/contract';
import { showError, showSuccess } from '../../../lib/message';
import { useSetAutoRenew } from '../api/set-auto-renew';
import { useUpdateRemark } from '../api/update-remark';
import { formatAllowance, formatArea, formatBytes, formatDateTime, usagePercent } from '../utils/format';
import type { TScreenConfig } from '../utils/screens';
import { SecretText } from './copy-field';
import { RowActions, type TRowHandlers } from './row-actions';
import { StatusTag } from './status-tag';

/** The list's table: the columns of spec section 3, row selection and paging. */
export function ProxyTable(
  props: {
    screen: TScreenConfig;
    records: TProxyToken[];
    total: number;
    page: number;
    pageSize: number;
    isLoading: boolean;
    /** Filters are applied: an empty list means nothing matched, not that nothing was bought. */
    isFiltered: boolean;
    selectedIds: number[];
    onSelect: (ids: number[], rows: TProxyToken[]) => void;
    onPage: (page: number, pageSize: number) => void;
  } & TRowHandlers,
) {
  const { t } = useTranslation('proxies');
  const updateRemark = useUpdateRemark();
  const autoRenew = useSetAutoRenew(props.screen);

  const handleRemark = async (token: TProxyToken, text: string) => {
    const remark = text.trim();
    if (remark === token.remark) return;
    try {
      await updateRemark.mutateAsync({ tokenId: token.token_id, remark });
      showSuccess(t('row.remarkSaved'));
    } catch {
      // the request layer has shown why
    }
  };

  const handleAutoRenew = (token: TProxyToken, isOn: boolean) =>
    autoRenew.mutate(
      { tokenIds: [token.token_id], isOn },
      {
        onSuccess: (result) => {
          if (result.success > 0) showSuccess(t(isOn ? 'autoRenew.on' : 'autoRenew.off'));
          else showError(t('autoRenew.failed'));
        },
      },
    );

  const columns: TableColumnsType<TProxyToken> = [
    {
      title: t('fields.remark'),
      dataIndex: 'remark',
      width: 170,
      render: (remark: string, token) => (
        <Typography.Text
          editable={{
            text: remark,
            maxLength: PROXY_REMARK_MAX,
            tooltip: t('row.editRemark'),
            triggerType: ['icon'],
            onChange: (text) => void handleRemark(token, text),
          }}
          type={remark ? undefined : 'secondary'}
          data-testid={`remark-${token.token_id}`}
        >
          {remark || t('row.noRemark')}
        </Typography.Text>
      ),
    },
    {
      title: t('fields.type'),
      key: 'type',
      width: 110,
      render: (_, token) => <Tag color={token.type === 'ip' ? 'blue' : 'purple'}>{t(`billing.${token.type}`)}</Tag>,
    },
    { title: t('fields.network'), dataIndex: 'network', width: 90 },
    { title: t('fields.area'), key: 'area', width: 170, render: (_, token) => formatArea(token.area) },
    {
      title: t('fields.usage'),
      key: 'usage',
      width: 190,
      render: (_, token) => {
        const percent = usagePercent(token.usage);
        if (token.usage.limit_bytes === null || percent === null) return formatBytes(token.usage.used_bytes);
        return (
          <div>
            <Typography.Text style={{ fontSize: 12 }}>
              {t('usage.ofLimit', { used: formatBytes(token.usage.used_bytes), limit: formatAllowance(token.usage.limit_bytes) })}
            </Typography.Text>
            <Progress percent={percent} size="small" status={percent >= 100 ? 'exception' : 'normal'} showInfo={false} />
          </div>
        );
      },
    },
    { title: t('fields.createdAt'), dataIndex: 'created_at', width: 165, render: (v: string) => formatDateTime(v) },
    { title: t('fields.expiresAt'), dataIndex: 'expires_at', width: 165, render: (v: string) => formatDateTime(v) },
    { title: t('fields.status'), dataIndex: 'status', width: 100, render: (_, token) => <StatusTag status={token.status} /> },
    {
      title: t('fields.autoRenew'),
      key: 'autoRenew',
      width: 110,
      render: (_, token) =>
        token.type === 'ip' ? (
          <Switch
            size="small"
            checked={token.auto_renew}
            disabled={token.status === 'deleted' || token.status === 'invalid'}
            loading={autoRenew.isPending && autoRenew.variables?.tokenIds[0] === token.token_id}
            aria-label={t('row.autoRenewFor', { name: token.username })}
            onChange={(checked) => handleAutoRenew(token, checked)}
          />
        ) : (
          <Typography.Text type="secondary">-</Typography.Text>
        ),
    },
    {
      title: t('fields.hostPort'),
      key: 'hostPort',
      width: 200,
      render: (_, token) => (
        <Typography.Text copyable style={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>{`${token.host}:${token.port}`}</Typography.Text>
      ),
    },
    {
      title: t('fields.username'),
      dataIndex: 'username',
      width: 190,
      render: (username: string) => (
        <Typography.Text copyable style={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>
          {username}
        </Typography.Text>
      ),
    },
    {
      title: t('fields.password'),
      dataIndex: 'password',
      width: 190,
      render: (password: string, token) => <SecretText secret={password} label={token.username} />,
    },
    {
      title: t('fields.actions'),
      key: 'actions',
      fixed: 'right',
      width: 190,
      render: (_, token) => <RowActions token={token} onDetail={props.onDetail} onTest={props.onTest} onRenew={props.onRenew} />,
    },
  ];

  return (
    <Table<TProxyToken>
      rowKey="token_id"
      size="middle"
      columns={columns}
      dataSource={props.records}
      loading={props.isLoading}
      scroll={{ x: 'max-content' }}
      rowSelection={{
        selectedRowKeys: props.selectedIds,
        preserveSelectedRowKeys: true,
        onChange: (keys, rows) => props.onSelect(keys as number[], rows.filter(Boolean)),
      }}
      pagination={{
        current: props.page,
        pageSize: props.pageSize,
        total: props.total,
        showSizeChanger: true,
        showTotal: (total) => t('table.total', { total }),
        onChange: props.onPage,
      }}
      locale={{ emptyText: <Flex vertical align="center" style={{ padding: 16 }}>{props.isFiltered ? t('table.noMatch') : t('table.empty')}</Flex> }}
    />
  );
}
