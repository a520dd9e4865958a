import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/** Shown in place of a page whose roles the user lacks (spec section 5). */
export function ForbiddenResult() {
  const { t } = useTranslation('common');
  const navigate = useNavigate();
  return (
    <Result
      status="403"
      title={t('forbidden.title')}
      subTitle={t('forbidden.subtitle')}
      extra={
        <Button type="primary" onClick={() => void navigate('/')}>
          {t('actions.backHome')}
        </Button>
      }
    />
  );
}
