import { useState } from 'react';
import { Button, Card, Empty, Flex, Input, InputNumber, Select, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { RECONCILIATION_DEFAULT_THRESHOLD_BP, type TReconciliation } from '@proxy/contract';
import { formatBytes } from '../../../lib/format';
import { showSuccess } from '../../../lib/message';
import { getErrorMessage } from '../../../lib/server-issues';
import { useImportReconciliation, usePoolChoices, useReconciliation } from '../api/economics';
import { RefusedLinesAlert } from '../../../components/refused-lines-alert';

type TDay = TReconciliation['days'][number];

// A difference in bytes with its sign ("+19.53 KB", "-1.00 MB").
const signedBytes = (bytes: number) =>
  bytes > 0 ? `+${formatBytes(bytes)}` : bytes < 0 ? `-${formatBytes(-bytes)}` : '0 B';

/** The refused lines of an import, each as the API words them ("Line 3: ..."). */
function ImportProblems({ error }: { error: unknown }) {
  const { t } = useTranslation('admin-economics');
  if (!error) return null;
  // RECONCILIATION_CSV_INVALID (not a BAD_REQUEST) carries the refused lines in data.issues, each worded by the API.
  const issues = (error as { data?: { issues?: unknown } }).data?.issues;
  const messages = Array.isArray(issues)
    ? issues.map((i: { message?: unknown }) => String(i.message))
    : [getErrorMessage(error)];
  return (
    <RefusedLinesAlert
      title={t('reconciliation.badLines', { count: messages.length })}
      messages={messages}
      testId="import-errors"
    />
  );
}

/**
 * A pool's bytes per day beside its provider's usage report (docs/economics.md, "Reconciliation"): pick a pool, set
 * the flag's threshold in percent, paste the provider's CSV (`day,bytes[,unit]`) to import it.
 */
export function ReconciliationCard({ range }: { range: { from?: string; to?: string } }) {
  const { t } = useTranslation('admin-economics');
  const pools = usePoolChoices();
  const [poolId, setPoolId] = useState<number | null>(null);
  const [thresholdPct, setThresholdPct] = useState(RECONCILIATION_DEFAULT_THRESHOLD_BP / 100);
  const [csv, setCsv] = useState('');
  const data = useReconciliation(poolId, { ...range, threshold_bp: Math.round(thresholdPct * 100) });
  const importReport = useImportReconciliation();

  const save = async () => {
    if (poolId === null) return;
    const done = await importReport.mutateAsync({ id: poolId, csv }).catch(() => null);
    if (!done) return;
    showSuccess(t('reconciliation.imported', { count: done.days, from: done.from, to: done.to }));
    setCsv('');
  };

  const totals = data.data?.totals;
  return (
    <Card title={t('reconciliation.title')} style={{ marginTop: 16 }} data-testid="reconciliation">
      <Typography.Paragraph type="secondary">{t('reconciliation.intro')}</Typography.Paragraph>
      <Flex gap={8} wrap style={{ marginBottom: 16 }}>
        <Select<number>
          style={{ width: 240 }}
          placeholder={t('reconciliation.pool')}
          aria-label={t('reconciliation.pool')}
          loading={pools.isFetching}
          value={poolId ?? undefined}
          onChange={(value) => {
            setPoolId(value);
            importReport.reset();
          }}
          options={(pools.data?.records ?? []).map((p) => ({ value: p.id, label: p.name }))}
        />
        <InputNumber<number>
          aria-label={t('reconciliation.threshold')}
          addonBefore={t('reconciliation.threshold')}
          suffix="%"
          min={0}
          max={100}
          step={0.1}
          precision={2}
          value={thresholdPct}
          onChange={(value) => setThresholdPct(value ?? 0)}
          style={{ width: 220 }}
        />
      </Flex>
      {poolId === null ? (
        <Empty description={t('reconciliation.pickPool')} />
      ) : (
        <>
          {totals && (
            <Typography.Paragraph data-testid="reconciliation-totals">
              {t('reconciliation.totals', {
                ours: formatBytes(totals.our_bytes),
                theirs: formatBytes(totals.provider_bytes),
                count: totals.flagged_days,
              })}
            </Typography.Paragraph>
          )}
          <Table<TDay>
            rowKey="day"
            size="small"
            loading={data.isFetching}
            dataSource={(data.data?.days ?? []).filter((d) => d.our_bytes > 0 || d.provider_bytes !== null)}
            pagination={{ pageSize: 31, hideOnSinglePage: true }}
            locale={{ emptyText: t('reconciliation.empty') }}
            data-testid="reconciliation-table"
            columns={[
              { title: t('reconciliation.day'), dataIndex: 'day' },
              {
                title: t('reconciliation.ours'),
                dataIndex: 'our_bytes',
                align: 'right',
                render: (b: number) => formatBytes(b),
              },
              {
                title: t('reconciliation.theirs'),
                dataIndex: 'provider_bytes',
                align: 'right',
                render: (b: number | null) => (b === null ? t('reconciliation.notReported') : formatBytes(b)),
              },
              {
                title: t('reconciliation.difference'),
                key: 'difference',
                align: 'right',
                render: (_, d) =>
                  d.difference_bytes === null ? (
                    '—'
                  ) : (
                    <span>
                      {signedBytes(d.difference_bytes)}
                      {d.difference_bp !== null && ` (${(d.difference_bp / 100).toFixed(2)} %)`}{' '}
                      {d.is_flagged && <Tag color="error">{t('reconciliation.flagged')}</Tag>}
                    </span>
                  ),
              },
            ]}
          />
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            {t('reconciliation.importTitle')}
          </Typography.Title>
          <Typography.Paragraph type="secondary">{t('reconciliation.importHint')}</Typography.Paragraph>
          <Input.TextArea
            rows={5}
            value={csv}
            aria-label={t('reconciliation.csv')}
            placeholder={'day,bytes,unit\n2026-05-01,1073741824\n2026-05-02,12.5,GB'}
            onChange={(e) => setCsv(e.target.value)}
          />
          <Flex gap={8} style={{ marginTop: 8, marginBottom: 8 }}>
            <Button
              type="primary"
              disabled={csv.trim() === ''}
              loading={importReport.isPending}
              onClick={() => void save()}
            >
              {t('reconciliation.import')}
            </Button>
          </Flex>
          <ImportProblems error={importReport.error} />
        </>
      )}
    </Card>
  );
}
