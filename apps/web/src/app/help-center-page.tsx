import { Button, Result } from 'antd';
import { ExportOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { HELP_CENTER_URL } from '../lib/help-center';

/** /helpcenter typed in by hand: the help center is external, so offer the link (new tab). */
export default function HelpCenterPage() {
  const { t } = useTranslation('common');
  return (
    <Result
      status="info"
      title={t('helpCenter.title')}
      subTitle={t('helpCenter.subtitle')}
      extra={
        <Button type="primary" icon={<ExportOutlined />} href={HELP_CENTER_URL} target="_blank" rel="noopener noreferrer">
          {t('helpCenter.open')}
        </Button>
      }
    />
  );
}
