import { Alert, Button, Card, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatDateTimeMinutes } from '../../../lib/format';
import { EXPIRING_WITHIN_DAYS, useExpiringProxies, type TExpiringProxy } from '../api/expiring-proxies';
import { LightTable } from '../../../components/light-table';

const LIST_PATHS: Record<TExpiringProxy['kind'], string> = {
  dynamic: '/proxy/isp/variable',
  static: '/proxy/isp/static',
  idc: '/proxy/idc/list',
};

/** "in 5 h" / "in 2 d 3 h": time left until an expiry. */
function timeLeft(
  expiresAt: string,
  t: (key: string, options?: Record<string, unknown>) => string,
  now = Date.now(),
): string {
  const hours = Math.max(0, Math.floor((Date.parse(expiresAt) - now) / 3_600_000));
  if (hours < 1) return t('expiring.underHour');
  const days = Math.floor(hours / 24);
  return days > 0 ? t('expiring.inDaysHours', { days, hours: hours % 24 }) : t('expiring.inHours', { hours });
}

/** Enabled proxies expiring within 3 days, soonest first, with their auto-renew state. */
export function ExpiringCard() {
  const { t } = useTranslation('dashboard');
  const expiring = useExpiringProxies();
  return (
    <Card title={t('expiring.title', { days: EXPIRING_WITHIN_DAYS })}>
      {expiring.isError ? (
        <Alert
          type="error"
          showIcon
          title={t('errors.expiring')}
          action={
            <Button size="small" onClick={() => void expiring.refetch()}>
              {t('errors.retry')}
            </Button>
          }
        />
      ) : (
        <LightTable<TExpiringProxy>
          title={t('expiring.title', { days: EXPIRING_WITHIN_DAYS })}
          rowKey={(r) => r.token_id}
          size="small"
          isLoading={expiring.isPending}
          rows={expiring.data ?? []}
          pageSize={5}
          emptyText={t('expiring.none', { days: EXPIRING_WITHIN_DAYS })}
          minWidth={720}
          columns={[
            {
              key: 'username',
              title: t('expiring.proxy'),
              render: (r) => (
                <Link to={LIST_PATHS[r.kind]}>
                  <Typography.Text code>{r.username}</Typography.Text>
                </Link>
              ),
            },
            { key: 'kind', title: t('expiring.kind'), render: (r) => <Tag>{t(`active.${r.kind}`)}</Tag> },
            {
              key: 'area',
              title: t('expiring.area'),
              render: (r) => [r.area.country_name, r.area.state_name, r.area.city_name].filter(Boolean).join(' / '),
            },
            {
              key: 'remark',
              title: t('expiring.remark'),
              render: (r) => (
                <Typography.Text ellipsis={{ tooltip: r.remark }} style={{ maxWidth: 200 }}>
                  {r.remark}
                </Typography.Text>
              ),
            },
            {
              key: 'expires',
              title: t('expiring.expiresAt'),
              render: (r) => (
                <>
                  <div style={{ whiteSpace: 'nowrap' }}>{formatDateTimeMinutes(r.expires_at)}</div>
                  <Typography.Text type="warning">({timeLeft(r.expires_at, t)})</Typography.Text>
                </>
              ),
            },
            {
              key: 'autoRenew',
              title: t('expiring.autoRenew'),
              render: (r) =>
                r.auto_renew ? (
                  <Tag color="green">{t('expiring.on')}</Tag>
                ) : (
                  <Tag color="orange">{t('expiring.off')}</Tag>
                ),
            },
          ]}
        />
      )}
    </Card>
  );
}
