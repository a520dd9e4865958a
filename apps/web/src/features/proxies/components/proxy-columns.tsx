import { Tag, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TProxyToken } from '@proxy/contract';
import type { TProxyColumnKey } from '../hooks/use-column-choice';
import { formatArea } from '../utils/format';
import type { TScreenConfig } from '../utils/screens';
import { AutoRenewCell, CredentialsCell, DateTimeCell, RemarkCell, UsageCell } from './proxy-cells';
import { RowActions, type TRowHandlers } from './row-actions';
import { StatusTag } from './status-tag';

type TProxyColumn = TableColumnsType<TProxyToken>[number] & { key: TProxyColumnKey };

/** The title of each column of a proxy list. */
export function useColumnTitles(): Record<TProxyColumnKey, string> {
  const { t } = useTranslation('proxies');
  return {
    remark: t('fields.remark'),
    type: t('fields.type'),
    network: t('fields.network'),
    area: t('fields.area'),
    usage: t('fields.usage'),
    createdAt: t('fields.createdAt'),
    expiresAt: t('fields.expiresAt'),
    status: t('fields.status'),
    autoRenew: t('fields.autoRenew'),
    credentials: t('fields.credentials'),
    actions: t('fields.actions'),
  };
}

/**
 * The columns of a proxy list (spec section 3) that the user has chosen to
 * see, the row actions last. The default set (about 1100 px with the row
 * selection) fits the content area of a 1440 px screen.
 */
export function useProxyColumns(
  screen: TScreenConfig,
  handlers: TRowHandlers,
  visible: TProxyColumnKey[],
): TableColumnsType<TProxyToken> {
  const { t } = useTranslation('proxies');
  const titles = useColumnTitles();
  const columns: TProxyColumn[] = [
    {
      title: titles.remark,
      key: 'remark',
      dataIndex: 'remark',
      width: 150,
      render: (_, token) => <RemarkCell token={token} />,
    },
    {
      title: titles.type,
      key: 'type',
      width: 92,
      render: (_, token) => <Tag color={token.type === 'ip' ? 'blue' : 'purple'}>{t(`billing.${token.type}`)}</Tag>,
    },
    { title: titles.network, key: 'network', dataIndex: 'network', width: 76 },
    { title: titles.area, key: 'area', width: 104, ellipsis: true, render: (_, token) => formatArea(token.area) },
    { title: titles.usage, key: 'usage', width: 160, render: (_, token) => <UsageCell token={token} /> },
    {
      title: titles.createdAt,
      key: 'createdAt',
      dataIndex: 'created_at',
      width: 96,
      render: (v: string) => <DateTimeCell iso={v} />,
    },
    {
      title: titles.expiresAt,
      key: 'expiresAt',
      dataIndex: 'expires_at',
      width: 96,
      render: (v: string) => <DateTimeCell iso={v} />,
    },
    {
      title: titles.status,
      key: 'status',
      dataIndex: 'status',
      width: 84,
      render: (_, token) => <StatusTag status={token.status} />,
    },
    {
      title: titles.autoRenew,
      key: 'autoRenew',
      width: 92,
      render: (_, token) => <AutoRenewCell screen={screen} token={token} />,
    },
    {
      title: titles.credentials,
      key: 'credentials',
      width: 200,
      render: (_, token) => <CredentialsCell token={token} />,
    },
    {
      title: titles.actions,
      key: 'actions',
      fixed: 'right',
      width: 184,
      render: (_, token) => (
        <RowActions
          token={token}
          onDetail={handlers.onDetail}
          onTest={handlers.onTest}
          onRenew={handlers.onRenew}
          onPluginSetting={handlers.onPluginSetting}
        />
      ),
    },
  ];
  // Each column's cells carry its key as a class (proxy-col-<key>), for styling and for the browser tests.
  return columns
    .filter((column) => visible.includes(column.key))
    .map((column) => ({ ...column, className: `proxy-col-${column.key}` }));
}
