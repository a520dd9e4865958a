import { Button, Tooltip } from 'antd';
import { MoonOutlined, SunOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { toggleThemeMode, useThemeMode } from '../lib/theme';

/** Light/dark toggle; follows the system until used, then remembers the choice. */
export function ThemeSwitch() {
  const { t } = useTranslation('common');
  const mode = useThemeMode();
  const label = mode === 'dark' ? t('theme.toLight') : t('theme.toDark');
  return (
    <Tooltip title={label}>
      <Button
        type="text"
        icon={mode === 'dark' ? <SunOutlined /> : <MoonOutlined />}
        aria-label={label}
        data-testid="theme-switch"
        data-theme-mode={mode}
        onClick={toggleThemeMode}
      />
    </Tooltip>
  );
}
