import { Button, Card, Descriptions, Flex, Result, Skeleton, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { formatYuan } from '@proxy/contract';
import { LanguageSwitch } from '../../../components/language-switch';
import { ThemeSwitch } from '../../../components/theme-switch';
import { ApiError } from '../../../lib/api-client';
import { formatDateTimeMinutes } from '../../../lib/format';
import { useCancelRenewal, useRenewalCancelInfo } from '../api/renewal-cancel';

function messageOf(error: unknown, fallback: string): string {
  return error instanceof ApiError ? error.msg : fallback;
}

/**
 * /renewal/cancel?token=…, public: the auto-renewal a notice's link names
 * (proxy, amount, charge time) and a confirm button that turns auto-renew off
 * for that proxy. The link works once and until the charge time.
 */
export default function RenewalCancelPage() {
  const { t } = useTranslation('renewal-cancel');
  const { token: design } = theme.useToken();
  const token = useSearchParams()[0].get('token')?.trim() ?? '';
  const info = useRenewalCancelInfo(token);
  const cancel = useCancelRenewal();
  const toConsole = (
    <Link to="/">
      <Button>{t('toConsole')}</Button>
    </Link>
  );

  let body;
  if (token === '') body = <Result status="warning" title={t('invalid')} extra={toConsole} />;
  else if (cancel.isSuccess)
    body = (
      <Result
        status="success"
        title={t('done.title')}
        subTitle={t('done.detail', {
          proxy: cancel.data.proxy,
          expires: formatDateTimeMinutes(cancel.data.expires_at),
        })}
        extra={toConsole}
        data-testid="renewal-cancel-done"
      />
    );
  else if (info.isPending) body = <Skeleton active />;
  else if (info.isError)
    body = <Result status="warning" title={messageOf(info.error, t('fetchFailed'))} extra={toConsole} />;
  else if (info.data.state !== 'pending')
    body = <Result status="info" title={info.data.state === 'used' ? t('used') : t('expired')} extra={toConsole} />;
  else
    body = (
      <Flex vertical gap={16}>
        <Descriptions
          column={1}
          bordered
          size="small"
          items={[
            { key: 'proxy', label: t('proxy'), children: info.data.proxy },
            { key: 'amount', label: t('amount'), children: formatYuan(info.data.amount) },
            { key: 'charge', label: t('chargeAt'), children: formatDateTimeMinutes(info.data.charge_at) },
            { key: 'expires', label: t('expiresAt'), children: formatDateTimeMinutes(info.data.expires_at) },
          ]}
        />
        {cancel.isError && (
          <Result status="error" title={messageOf(cancel.error, t('failed'))} style={{ padding: 8 }} />
        )}
        <Button
          type="primary"
          danger
          loading={cancel.isPending}
          onClick={() => cancel.mutate(token)}
          data-testid="renewal-cancel-confirm"
        >
          {t('confirm')}
        </Button>
      </Flex>
    );

  return (
    <Flex vertical align="center" style={{ minHeight: '100vh', background: design.colorBgLayout, padding: 24 }}>
      <Flex justify="flex-end" gap={8} style={{ width: '100%', maxWidth: 560 }}>
        <LanguageSwitch />
        <ThemeSwitch />
      </Flex>
      <Card title={t('title')} style={{ width: '100%', maxWidth: 560, marginTop: 48 }}>
        {body}
      </Card>
    </Flex>
  );
}
