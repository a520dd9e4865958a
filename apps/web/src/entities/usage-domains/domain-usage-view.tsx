import { useState } from 'react';
import { Alert, Button, Empty, Flex, Grid, Segmented, Skeleton, Tooltip, Typography, theme } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TDomainUsage } from '@proxy/contract';
import { LightTable, type TLightColumn } from '../../components/light-table';
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

/** A share as a thin bar and its percentage (a plain element: antd's Progress is not worth its weight here). */
function ShareBar({ share }: { share: number }) {
  const { token } = theme.useToken();
  return (
    <Flex align="center" gap={6}>
      <div
        aria-hidden
        style={{ flex: 1, height: 6, borderRadius: 3, background: token.colorFillSecondary, overflow: 'hidden' }}
      >
        <div style={{ width: `${Math.min(100, share * 100)}%`, height: '100%', background: token.colorPrimary }} />
      </div>
      <span style={{ whiteSpace: 'nowrap' }}>{percent(share)}</span>
    </Flex>
  );
}

/** The link to the setting, for the empty state and the "off" notice. */
function SettingLink() {
  const { t } = useTranslation('dashboard', { keyPrefix: 'domainUsage' });
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
  const { t } = useTranslation('dashboard', { keyPrefix: 'domainUsage' });
  const isWide = Grid.useBreakpoint().sm ?? true;
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
  // A plain table (no antd Table: the dashboard's route budget); the connections column from the small breakpoint up.
  const columns: TLightColumn<TRow>[] = [
    {
      key: 'domain',
      title: t('domain'),
      render: ({ domain }) =>
        domain === null ? (
          <Tooltip title={t('otherHelp')}>
            <Typography.Text type="secondary">{t('other')}</Typography.Text>
          </Tooltip>
        ) : (
          <Typography.Text ellipsis={{ tooltip: domain }} style={{ maxWidth: 320 }}>
            {domain}
          </Typography.Text>
        ),
    },
    {
      key: 'bytes',
      title: t('bytes'),
      width: 100,
      isNowrap: true,
      render: ({ bytes }) => <Tooltip title={t('exactBytes', { bytes })}>{formatBytes(bytes)}</Tooltip>,
    },
    ...(isWide
      ? [{ key: 'connections', title: t('connections'), width: 100, render: (row: TRow) => row.connections }]
      : []),
    {
      key: 'share',
      title: t('share'),
      width: 110,
      render: ({ share }) => <ShareBar share={share} />,
    },
  ];
  return (
    <Flex vertical gap={8}>
      {!usage.enabled && (
        <Alert type="info" showIcon title={t('off')} action={<SettingLink />} data-testid="domain-usage-off-notice" />
      )}
      <div data-testid="domain-usage-table">
        <LightTable<TRow> size="small" title={t('title')} rowKey={(row) => row.key} columns={columns} rows={rows} />
      </div>
    </Flex>
  );
}

/**
 * A usage query's state: the error with a Retry, the loading placeholder, or the period's total and figures (the
 * first `limit` domains, the rest as other).
 */
export function DomainUsageState({ usage, limit }: { usage: ReturnType<typeof useDomainUsage>; limit?: number }) {
  const { t } = useTranslation('dashboard', { keyPrefix: 'domainUsage' });
  if (usage.isError && !usage.data)
    return (
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
    );
  if (!usage.data) return <Skeleton active paragraph={{ rows: 3 }} />;
  return (
    <>
      <DomainUsageTotal usage={usage.data} />
      <DomainUsageView usage={usage.data} limit={limit} />
    </>
  );
}

/** The period's total and its UTC days. */
export function DomainUsageTotal({ usage }: { usage: TDomainUsage }) {
  const { t } = useTranslation('dashboard', { keyPrefix: 'domainUsage' });
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
  const { t } = useTranslation('dashboard', { keyPrefix: 'domainUsage' });
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
      <DomainUsageState usage={usage} />
    </Flex>
  );
}
