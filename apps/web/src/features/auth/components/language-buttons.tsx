import { Button, Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { LANGS, type TLang } from '@proxy/contract/light';
import { getLanguage, setLanguage } from '../../../lib/i18n';

/**
 * The sign-in pages' language choice: both languages side by side, the current
 * one pressed (the choice is saved locally, as with the shell's menu). The
 * shell's LanguageSwitch is a dropdown menu, ~22 KB of gzipped JavaScript
 * these pages would download for two entries.
 */
export function LanguageButtons() {
  const { t, i18n } = useTranslation('common');
  const current: TLang = i18n.language === 'en' ? 'en' : getLanguage();
  return (
    <Flex role="group" aria-label={t('language.label')} gap={4}>
      {LANGS.map((lang) => (
        <Button
          key={lang}
          type="text"
          size="small"
          aria-pressed={lang === current}
          onClick={() => setLanguage(lang)}
          style={lang === current ? { fontWeight: 600 } : undefined}
        >
          {t(`language.${lang}`)}
        </Button>
      ))}
    </Flex>
  );
}
