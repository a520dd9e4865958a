import { useTranslation } from 'react-i18next';

/** Centred spinner while a page or the user info loads (no antd: it is the router's fallback before any screen). */
export function PageLoading() {
  const { t } = useTranslation('common');
  return (
    <div
      style={{ display: 'flex', justifyContent: 'center', alignItems: 'center', minHeight: 240 }}
      role="status"
      aria-label={t('loading')}
    >
      <span className="light-spinner" aria-hidden="true" />
    </div>
  );
}
