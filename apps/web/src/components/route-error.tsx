import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';

/** Error boundary of the router: a page chunk that failed to load, or a screen that crashed. */
export function RouteError() {
  const { t } = useTranslation('common');
  return (
    <Result
      status="error"
      title={t('routeError.title')}
      subTitle={t('routeError.subtitle')}
      extra={
        <Button type="primary" onClick={() => window.location.reload()}>
          {t('actions.reload')}
        </Button>
      }
    />
  );
}
