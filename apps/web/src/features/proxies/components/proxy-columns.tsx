import { Tag, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TProxyToken } from '@proxy/contract';
import { formatArea, formatDateTime } from '../utils/format';
import type { TScreenConfig } from '../utils/screens';
import { SecretText } from './copy-field';
import { AutoRenewCell, MonospaceCopyable, RemarkCell, UsageCell } from './proxy-cells';
import { RowActions, type TRowHandlers } from './row-actions';
import { StatusTag } from './status-tag';

/** The columns of a proxy list (spec section 3), the row actions last. */
export function useProxyColumns(screen: TScreenConfig, handlers: TRowHandlers): TableColumnsType<TProxyToken> {
  const { t } = useTranslation('proxies');
  return [
    { title: t('fields.remark'), dataIndex: 'remark', width: 170, render: (_, token) => <RemarkCell token={token} /> },
    {
      title: t('fields.type'),
      key: 'type',
      width: 110,
      render: (_, token) => <Tag color={token.type === 'ip' ? 'blue' : 'purple'}>{t(`billing.${token.type}`)}</Tag>,
    },
    { title: t('fields.network'), dataIndex: 'network', width: 90 },
    { title: t('fields.area'), key: 'area', width: 170, render: (_, token) => formatArea(token.area) },
    { title: t('fields.usage'), key: 'usage', width: 190, render: (_, token) => <UsageCell token={token} /> },
    { title: t('fields.createdAt'), dataIndex: 'created_at', width: 165, render: (v: string) => formatDateTime(v) },
    { title: t('fields.expiresAt'), dataIndex: 'expires_at', width: 165, render: (v: string) => formatDateTime(v) },
    { title: t('fields.status'), dataIndex: 'status', width: 100, render: (_, token) => <StatusTag status={token.status} /> },
    { title: t('fields.autoRenew'), key: 'autoRenew', width: 110, render: (_, token) => <AutoRenewCell screen={screen} token={token} /> },
    { title: t('fields.hostPort'), key: 'hostPort', width: 200, render: (_, token) => <MonospaceCopyable text={`${token.host}:${token.port}`} /> },
    { title: t('fields.username'), dataIndex: 'username', width: 190, render: (username: string) => <MonospaceCopyable text={username} /> },
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
      render: (_, token) => (
        <RowActions token={token} onDetail={handlers.onDetail} onTest={handlers.onTest} onRenew={handlers.onRenew} onPluginSetting={handlers.onPluginSetting} />
      ),
    },
  ];
}
