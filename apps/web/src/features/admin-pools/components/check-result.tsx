import { Alert, Descriptions, Flex, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TPoolCheckResult } from '@proxy/contract';
import { formatDateTimeSeconds, formatMilliseconds } from '../../../lib/format';

/**
 * What a check found: the exit IP and its country and the latency, or the provider's refusal in the operator's
 * language with the provider's own words beside it; always the username sent (never the password).
 */
export function CheckResult({ result }: { result: TPoolCheckResult }) {
  const { t } = useTranslation('admin-pools');
  const none = t('check.unknown');
  const ms = (value: number | null) => (value === null ? none : formatMilliseconds(value));
  const country = result.exit_country
    ? t('check.countryFromData', { country: result.exit_country.toUpperCase() })
    : result.provider_exit_country
      ? t('check.countryFromProvider', { country: result.provider_exit_country.toUpperCase() })
      : none;
  const providerExit = [result.provider_exit_ip, result.provider_exit_country?.toUpperCase()]
    .filter(Boolean)
    .join(' · ');
  const isOk = result.outcome === 'ok';

  return (
    <Flex vertical gap={12} data-testid="check-result" data-outcome={result.outcome}>
      {isOk ? (
        <Alert type="success" showIcon title={t('check.ok')} />
      ) : (
        <Alert
          type="error"
          showIcon
          title={<span data-testid="check-failure">{t(`check.failed.${result.outcome}`)}</span>}
          description={
            result.provider_status || result.provider_detail ? (
              <Flex vertical gap={2} data-testid="check-provider-said">
                <Typography.Text type="secondary">{t('check.providerSaid')}</Typography.Text>
                {result.provider_status && <Typography.Text code>{result.provider_status}</Typography.Text>}
                {result.provider_detail && (
                  <Typography.Text code style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                    {result.provider_detail}
                  </Typography.Text>
                )}
              </Flex>
            ) : undefined
          }
        />
      )}
      {!result.is_covered && <Alert type="warning" showIcon title={t('check.notCovered', { area: result.area })} />}
      <Descriptions size="small" column={1} bordered>
        {(isOk || result.exit_ip) && (
          <>
            <Descriptions.Item label={t('check.exitIp')}>
              <span data-testid="check-exit-ip">{result.exit_ip ?? none}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('check.exitCountry')}>
              <span data-testid="check-exit-country">{country}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('check.latency')}>
              <span data-testid="check-latency">
                {result.connect_ms !== null
                  ? t('check.latencyValue', { total: ms(result.latency_ms), connect: ms(result.connect_ms) })
                  : ms(result.latency_ms)}
              </span>
            </Descriptions.Item>
          </>
        )}
        {providerExit && <Descriptions.Item label={t('check.providerExit')}>{providerExit}</Descriptions.Item>}
        <Descriptions.Item label={t('check.area')}>{result.area}</Descriptions.Item>
        <Descriptions.Item label={t('check.username')}>
          <Typography.Text code style={{ wordBreak: 'break-all' }} data-testid="check-username">
            {result.username}
          </Typography.Text>
        </Descriptions.Item>
        {result.session_id && <Descriptions.Item label={t('check.sessionId')}>{result.session_id}</Descriptions.Item>}
        <Descriptions.Item label={t('check.endpoint')}>{result.endpoint ?? none}</Descriptions.Item>
        <Descriptions.Item label={t('check.checkedAt')}>{formatDateTimeSeconds(result.checked_at)}</Descriptions.Item>
      </Descriptions>
      {!isOk && result.attempts.length > 0 && (
        <Table
          size="small"
          rowKey={(a) => `${a.endpoint}-${a.ms}-${a.outcome}`}
          pagination={false}
          title={() => t('check.attempts')}
          dataSource={result.attempts}
          scroll={{ x: 'max-content' }}
          columns={[
            { title: t('check.endpoint'), dataIndex: 'endpoint' },
            { title: t('columns.status'), dataIndex: 'outcome', render: (v: string) => t(`check.attempt.${v}`) },
            { title: t('check.latency'), dataIndex: 'ms', render: (v: number) => formatMilliseconds(v) },
            { title: t('check.providerSaid'), dataIndex: 'detail' },
          ]}
        />
      )}
    </Flex>
  );
}
