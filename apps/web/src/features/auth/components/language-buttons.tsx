import { useTranslation } from 'react-i18next';
import { LANGS, type TLang } from '@proxy/contract/light';
import { getLanguage, setLanguage } from '../../../lib/i18n';
import { AuthButton } from '../ui/fields';

/**
 * The sign-in pages' language choice: both languages side by side, the current
 * one pressed (the choice is saved locally, as with the shell's menu). The
 * shell's LanguageSwitch is antd's dropdown menu, which these pages do not load.
 */
export function LanguageButtons() {
  const { t, i18n } = useTranslation('common');
  const current: TLang = i18n.language === 'en' ? 'en' : getLanguage();
  return (
    <div role="group" aria-label={t('language.label')} style={{ display: 'flex', gap: 4 }}>
      {LANGS.map((lang) => (
        <AuthButton key={lang} variant="text" aria-pressed={lang === current} onClick={() => setLanguage(lang)}>
          {t(`language.${lang}`)}
        </AuthButton>
      ))}
    </div>
  );
}
