import { Button, Dropdown } from 'antd';
import { TranslationOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LANGS, type TLang } from '@proxy/contract/light';
import { getLanguage, setLanguage } from '../lib/i18n';

/** Language menu (zh / en); the choice is saved locally. Works on public pages too. */
export function LanguageSwitch(props: { isCompact?: boolean }) {
  const { t, i18n } = useTranslation('common');
  const current: TLang = i18n.language === 'en' ? 'en' : getLanguage();
  // The accessible name contains the visible text (the current language) when there is one.
  const label = props.isCompact ? t('language.label') : `${t('language.label')}: ${t(`language.${current}`)}`;
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [current],
        items: LANGS.map((lang) => ({ key: lang, label: t(`language.${lang}`) })),
        onClick: ({ key }) => setLanguage(key as TLang),
      }}
    >
      <Button type="text" icon={<TranslationOutlined />} aria-label={label} data-testid="language-switch">
        {props.isCompact ? null : t(`language.${current}`)}
      </Button>
    </Dropdown>
  );
}
