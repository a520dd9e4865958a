import { Button, Card, Typography } from 'antd';
import { CompassOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { confirmAction } from '../../../lib/message';
import { resetUserGuide } from '../../../lib/user-guide';

/** "Reset the user guide": clears userGuideCompleted and reloads, so the guided tour starts again (spec section 2). */
export function UserGuideCard() {
  const { t } = useTranslation('users');
  return (
    <Card title={t('guide.title')} size="small">
      <Typography.Paragraph type="secondary">{t('guide.description')}</Typography.Paragraph>
      <Button
        icon={<CompassOutlined />}
        data-testid="reset-user-guide"
        onClick={() => confirmAction({ title: t('guide.confirm'), onOk: () => resetUserGuide() })}
      >
        {t('guide.reset')}
      </Button>
    </Card>
  );
}
