import { lazy, Suspense } from 'react';
import { Alert, Card, Col, Descriptions, Empty, Flex, Row, Skeleton, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TIpQuality } from '@proxy/contract';
import { formatDateTimeSeconds } from '../../../lib/format';
import { getLanguage } from '../../../lib/i18n';

const RiskGauge = lazy(() => import('./risk-gauge'));

const LEVEL_COLORS = { low: 'success', medium: 'warning', high: 'error' } as const;
const KIND_COLORS = {
  hosting: 'volcano',
  isp: 'green',
  mobile: 'blue',
  education: 'purple',
  unknown: 'default',
} as const;

type TReason = TIpQuality['reasons'][number];

/** Which rule decided the network kind, in words ("asn:15169" -> by AS number). */
function ruleKey(rule: string | null): 'asn' | 'name' | 'none' {
  if (rule?.startsWith('asn:')) return 'asn';
  if (rule?.startsWith('name:')) return 'name';
  return 'none';
}

/** One answer of the check: risk gauge, details, reasons table and the data it came from. */
export function IpQualityResult({ result }: { result: TIpQuality }) {
  const { t } = useTranslation('ip-quality');
  const lang = getLanguage();
  const yesNo = (value: boolean, color: string) =>
    value ? <Tag color={color}>{t('details.yes')}</Tag> : <Tag>{t('details.no')}</Tag>;

  const location = result.location;
  const details = [
    {
      key: 'ip',
      label: t('details.ip'),
      children: (
        <Flex gap={8} wrap align="center">
          <Typography.Text strong copyable>
            {result.ip}
          </Typography.Text>
          <Tag>{result.family === 4 ? 'IPv4' : 'IPv6'}</Tag>
        </Flex>
      ),
    },
    {
      key: 'scope',
      label: t('details.scope'),
      children: <Tag color={result.is_public ? 'blue' : 'default'}>{t(`scope.${result.scope}`)}</Tag>,
    },
    {
      key: 'location',
      label: t('details.location'),
      children: location ? (
        <span data-testid="ip-location">
          {location.flag && (
            <span aria-hidden style={{ marginInlineEnd: 6 }}>
              {location.flag}
            </span>
          )}
          {[location.country_name[lang], location.region, location.city].filter(Boolean).join(' · ')}
          {location.timezone && (
            <Typography.Text type="secondary" style={{ marginInlineStart: 8 }}>
              {t('details.timezone', { timezone: location.timezone })}
            </Typography.Text>
          )}
        </span>
      ) : (
        <Typography.Text type="secondary">{result.is_public ? t('details.noLocation') : '—'}</Typography.Text>
      ),
    },
    {
      key: 'network',
      label: t('details.network'),
      children: result.asn ? (
        <span data-testid="ip-network">{`AS${result.asn.number} · ${result.asn.organization}`}</span>
      ) : (
        <Typography.Text type="secondary">{result.is_public ? t('details.noNetwork') : '—'}</Typography.Text>
      ),
    },
    {
      key: 'kind',
      label: t('details.kind'),
      children: result.network_kind ? (
        <Flex gap={8} wrap align="center">
          <Tag color={KIND_COLORS[result.network_kind]}>{t(`kind.${result.network_kind}`)}</Tag>
          <Typography.Text type="secondary">
            {t(`details.kindRule.${ruleKey(result.network_kind_rule)}`)}
          </Typography.Text>
        </Flex>
      ) : (
        <Typography.Text type="secondary">—</Typography.Text>
      ),
    },
    { key: 'exit', label: t('details.ourExit'), children: yesNo(result.is_our_exit, 'blue') },
    {
      key: 'blacklist',
      label: t('details.blacklist'),
      children: (
        <Flex gap={8} wrap align="center">
          {yesNo(result.is_blacklisted, 'red')}
          {result.is_blacklisted && (
            <Typography.Text type="secondary">
              {t('details.matchedEntries', { entries: result.blacklist_entries.join('; ') })}
            </Typography.Text>
          )}
        </Flex>
      ),
    },
  ];

  const columns = [
    { key: 'reason', title: t('reasons.reason'), render: (_: unknown, r: TReason) => r.text[lang] },
    {
      key: 'points',
      title: t('reasons.points'),
      width: 110,
      render: (_: unknown, r: TReason) =>
        r.points > 0 ? (
          <Typography.Text type="danger">{`+${r.points}`}</Typography.Text>
        ) : (
          <Tag>{t('reasons.note')}</Tag>
        ),
    },
    {
      key: 'code',
      title: t('reasons.code'),
      width: 220,
      render: (_: unknown, r: TReason) => <Typography.Text code>{r.code}</Typography.Text>,
    },
  ];

  return (
    <Flex vertical gap={16} data-testid="ip-quality-result">
      {result.note && <Alert type="info" showIcon title={result.note[lang]} />}
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={9}>
          <Card title={t('risk.title')} style={{ height: '100%' }}>
            {result.risk_score === null || result.risk_level === null ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('risk.none')} />
            ) : (
              <Flex vertical align="center">
                <Suspense fallback={<Skeleton.Node active style={{ width: 240, height: 240 }} />}>
                  <RiskGauge score={result.risk_score} label={t('risk.gaugeName')} />
                </Suspense>
                <Tag color={LEVEL_COLORS[result.risk_level]} data-testid="risk-level">
                  {`${t(`risk.level.${result.risk_level}`)} · ${result.risk_score}/100`}
                </Tag>
              </Flex>
            )}
          </Card>
        </Col>
        <Col xs={24} lg={15}>
          <Card title={t('details.title')} style={{ height: '100%' }}>
            <Descriptions column={1} size="small" bordered items={details} />
          </Card>
        </Col>
      </Row>
      <Card title={t('reasons.title')}>
        <Table<TReason>
          rowKey="code"
          size="small"
          pagination={false}
          columns={columns}
          dataSource={result.reasons}
          locale={{ emptyText: t('reasons.empty') }}
        />
      </Card>
      <Card size="small" title={t('data.title')}>
        <ul style={{ margin: 0, paddingInlineStart: 20 }} data-testid="ip-data-sources">
          {result.data.sources.map((s) => (
            <li key={s.package}>
              <Typography.Text type="secondary">
                {t('data.source', {
                  name: s.name,
                  pkg: s.package,
                  version: s.version,
                  date: s.date,
                  license: s.license,
                })}
              </Typography.Text>
            </li>
          ))}
          <li>
            <Typography.Text type="secondary">{t('data.rules', { date: result.data.rules_date })}</Typography.Text>
          </li>
          <li>
            <Typography.Text type="secondary">
              {t('data.checkedAt', { time: formatDateTimeSeconds(result.data.checked_at) })}
            </Typography.Text>
          </li>
        </ul>
      </Card>
    </Flex>
  );
}
