import { Button, Card, Flex, Result, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { LanguageSwitch } from '../../../components/language-switch';
import { ThemeSwitch } from '../../../components/theme-switch';
import { ApiError } from '../../../lib/api-client';
import { useConfirmContact } from '../api/confirm-contact';

/**
 * /supply/contact/confirm?token=…, public: the page a contact address's
 * confirmation e-mail links to. Confirming takes a click (a mail scanner
 * opening the link confirms nothing); from then on the supply requests that
 * name this address e-mail it.
 */
export default function ContactConfirmPage() {
  const { t } = useTranslation('supply');
  const { token: design } = theme.useToken();
  const token = useSearchParams()[0].get('token')?.trim() ?? '';
  const confirm = useConfirmContact();
  const toConsole = (
    <Link to="/">
      <Button>{t('contactConfirm.toConsole')}</Button>
    </Link>
  );

  let body;
  if (token === '') body = <Result status="warning" title={t('contactConfirm.invalid')} extra={toConsole} />;
  else if (confirm.isSuccess)
    body = (
      <Result
        status="success"
        title={t('contactConfirm.done', { email: confirm.data.email })}
        extra={toConsole}
        data-testid="contact-confirm-done"
      />
    );
  else
    body = (
      <Flex vertical gap={16}>
        <p>{t('contactConfirm.detail')}</p>
        {confirm.isError && (
          <Result
            status="error"
            title={confirm.error instanceof ApiError ? confirm.error.msg : t('contactConfirm.invalid')}
            style={{ padding: 8 }}
          />
        )}
        <Button
          type="primary"
          loading={confirm.isPending}
          onClick={() => confirm.mutate(token)}
          data-testid="contact-confirm"
        >
          {t('contactConfirm.confirm')}
        </Button>
      </Flex>
    );

  return (
    <Flex vertical align="center" style={{ minHeight: '100vh', background: design.colorBgLayout, padding: 24 }}>
      <Flex justify="flex-end" gap={8} style={{ width: '100%', maxWidth: 560 }}>
        <LanguageSwitch />
        <ThemeSwitch />
      </Flex>
      <Card title={t('contactConfirm.title')} style={{ width: '100%', maxWidth: 560, marginTop: 48 }}>
        {body}
      </Card>
    </Flex>
  );
}
