import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/** The /404 page: translated, with a way home; plain elements (global.css), so it loads no antd. */
export default function NotFoundPage() {
  const { t } = useTranslation('common');
  const navigate = useNavigate();
  return (
    <main className="plain-result">
      <p className="plain-result-code" aria-hidden="true">
        404
      </p>
      <h1>{t('notFound.title')}</h1>
      <p>{t('notFound.subtitle')}</p>
      <button type="button" className="plain-primary-button" onClick={() => void navigate('/')}>
        {t('actions.backHome')}
      </button>
    </main>
  );
}
