import { useState } from 'react';
import { Alert, Button, Empty, Flex, Progress, Segmented, Skeleton, Table, Tooltip, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TDomainUsage } from '@proxy/contract';
import { formatBytes } from '../../lib/format';
import {
  DOMAIN_USAGE_PERIODS,
  useDomainUsage,
  useExportDomainUsage,
  type TDomainUsagePeriod,
} from './domain-usage-api';

/** Where the account turns usage by target domain on or off (the user centre's usage settings card). */
export const DOMAIN_USAGE_SETTINGS_PATH = '/user-center#usage-settings';

type TRow = { key: string; domain: string | null; bytes: number; connections: number; share: number };

const percent = (share: number) => `${(share * 100).toFixed(1)} %`;

/** The link to the setting, for the empty state and the "off" notice. */
function SettingLink() {
  const { t } = useTranslation('common', { keyPrefix: 'domainUsage' });
  return (
    <Link to={DOMAIN_USAGE_SETTINGS_PATH} data-testid="domain-usage-setting-link">
      {t('settingLink')}
    </Link>
  );
}

/**
 * The figures of a period: the named domains by bytes (the first `limit` of them; the rest of those listed adds to
 * "other"), then "other"; or a clear empty state (no traffic yet, or recording off with a link to the setting).
 * While recording is off but past days have figures, a notice says so above them.
 */
export function DomainUsageView({ usage, limit }: { usage: TDomainUsage; limit?: number }) {
  const { t } = useTranslation('common', { keyPrefix: 'domainUsage' });
  if (usage.total_bytes === 0) {
    return (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        data-testid={usage.enabled ? 'domain-usage-empty' : 'domain-usage-off'}
        description={
          usage.enabled ? (
            t('empty')
          ) : (
            <Flex vertical gap={4} align="center">
              <span>{t('offEmpty')}</span>
              <SettingLink />
            </Flex>
          )
        }
      />
    );
  }
  const shown = limit === undefined ? usage.domains : usage.domains.slice(0, limit);
  const hidden = usage.domains.slice(shown.length);
  const other = hidden.reduce(
    (sum, d) => ({
      bytes: sum.bytes + d.bytes,
      connections: sum.connections + d.connections,
      share: sum.share + d.share,
    }),
    usage.other,
  );
  const rows: TRow[] = [
    ...shown.map((d) => ({ key: `d:${d.domain}`, ...d })),
    ...(other.bytes > 0 || other.connections > 0 ? [{ key: 'other', domain: null, ...other }] : []),
  ];
  const columns: TableColumnsType<TRow> = [
    {
      title: t('domain'),
      dataIndex: 'domain',
      ellipsis: true,
      render: (domain: string | null) =>
        domain === null ? (
          <Tooltip title={t('otherHelp')}>
            <Typography.Text type="secondary">{t('other')}</Typography.Text>
          </Tooltip>
        ) : (
          <span title={domain}>{domain}</span>
        ),
    },
    {
      title: t('bytes'),
      dataIndex: 'bytes',
      align: 'right',
      width: 100,
      render: (bytes: number) => <Tooltip title={t('exactBytes', { bytes })}>{formatBytes(bytes)}</Tooltip>,
    },
    { title: t('connections'), dataIndex: 'connections', align: 'right', width: 100, responsive: ['sm'] },
    {
      title: t('share'),
      dataIndex: 'share',
      width: 110,
      render: (share: number) => (
        <Progress percent={share * 100} size="small" format={() => percent(share)} aria-label={percent(share)} />
      ),
    },
  ];
  return (
    <Flex vertical gap={8}>
      {!usage.enabled && (
        <Alert type="info" showIcon title={t('off')} action={<SettingLink />} data-testid="domain-usage-off-notice" />
      )}
      <Table<TRow>
        size="small"
        rowKey="key"
        columns={columns}
        dataSource={rows}
        pagination={false}
        tableLayout="fixed"
        data-testid="domain-usage-table"
      />
    </Flex>
  );
}

/** The period's total and its UTC days. */
export function DomainUsageTotal({ usage }: { usage: TDomainUsage }) {
  const { t } = useTranslation('common', { keyPrefix: 'domainUsage' });
  return (
    <Typography.Text type="secondary" data-testid="domain-usage-total">
      {t('total', { bytes: formatBytes(usage.total_bytes), from: usage.from, to: usage.to })}
    </Typography.Text>
  );
}

/**
 * Usage by target domain of one proxy or the whole account with a period switch (7, 30, 90 UTC days) and the CSV
 * button: a proxy's detail and the account's domains page.
 */
export function DomainUsagePanel({ tokenId }: { tokenId?: number }) {
  const { t } = useTranslation('common', { keyPrefix: 'domainUsage' });
  const [days, setDays] = useState<TDomainUsagePeriod>(7);
  const usage = useDomainUsage({ tokenId, days });
  const exporting = useExportDomainUsage();
  return (
    <Flex vertical gap={8} data-testid="domain-usage-panel">
      <Flex gap={8} wrap justify="space-between" align="center">
        <Segmented<TDomainUsagePeriod>
          size="small"
          aria-label={t('period')}
          value={days}
          onChange={setDays}
          options={DOMAIN_USAGE_PERIODS.map((d) => ({ value: d, label: t('days', { count: d }) }))}
        />
        <Button
          size="small"
          icon={<DownloadOutlined />}
          loading={exporting.isPending}
          disabled={!usage.data || usage.data.total_bytes === 0}
          onClick={() => exporting.mutate({ tokenId, days })}
        >
          {t('export')}
        </Button>
      </Flex>
      {usage.isError && !usage.data ? (
        <Alert
          type="error"
          showIcon
          title={t('loadFailed')}
          action={
            <Button size="small" onClick={() => void usage.refetch()}>
              {t('retry')}
            </Button>
          }
        />
      ) : !usage.data ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : (
        <>
          <DomainUsageTotal usage={usage.data} />
          <DomainUsageView usage={usage.data} />
        </>
      )}
    </Flex>
  );
}
