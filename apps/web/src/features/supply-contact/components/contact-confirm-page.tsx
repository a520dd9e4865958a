import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { useConfirmContact } from '../api/confirm-contact';

/**
 * /supply/contact/confirm?token=…, public: the page a contact address's
 * confirmation e-mail links to. Confirming takes a click (a mail scanner
 * opening the link confirms nothing); from then on the supply requests that
 * name this address e-mail it. Plain elements (global.css), like the other
 * pages a visitor opens from an e-mail, so it loads no antd; its texts are a
 * feature of their own, so a public page loads them and not the supply screen's.
 */
export default function ContactConfirmPage() {
  const { t } = useTranslation('supply-contact');
  const navigate = useNavigate();
  const token = useSearchParams()[0].get('token')?.trim() ?? '';
  const confirm = useConfirmContact();
  const toConsole = (
    <button type="button" className="plain-primary-button" onClick={() => void navigate('/')}>
      {t('toConsole')}
    </button>
  );

  if (token === '')
    return (
      <main className="plain-result">
        <h1>{t('invalid')}</h1>
        {toConsole}
      </main>
    );
  if (confirm.isSuccess)
    return (
      <main className="plain-result" data-testid="contact-confirm-done">
        <h1>{t('done', { email: confirm.data.email })}</h1>
        {toConsole}
      </main>
    );
  return (
    <main className="plain-result">
      <h1>{t('title')}</h1>
      <p>{t('detail')}</p>
      {confirm.isError && <p role="alert">{confirm.error instanceof ApiError ? confirm.error.msg : t('invalid')}</p>}
      <button
        type="button"
        className="plain-primary-button"
        disabled={confirm.isPending}
        onClick={() => confirm.mutate(token)}
        data-testid="contact-confirm"
      >
        {t('confirm')}
      </button>
    </main>
  );
}
