import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';

/** Centred spinner while a page or the user info loads. */
export function PageLoading() {
  const { t } = useTranslation('common');
  return (
    <div style={{ display: 'flex', justifyContent: 'center', alignItems: 'center', minHeight: 240 }} role="status" aria-label={t('loading')}>
      <Spin />
    </div>
  );
}
