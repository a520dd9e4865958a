import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PRODUCT_NAME } from '@proxy/contract/light';
import { useClaims } from '../../../entities/site/site-settings';
import { toggleThemeMode, useThemeMode } from '../../../lib/theme';
import { Icon } from '../ui/icons';
import { AuthButton } from '../ui/fields';
import { LanguageButtons } from './language-buttons';

type TAuthLayoutProps = {
  title: string;
  subtitle?: string;
  children: ReactNode;
};

/** Light/dark toggle of the sign-in pages (the shell's ThemeSwitch is antd's). */
function ThemeButton() {
  const { t } = useTranslation('common');
  const mode = useThemeMode();
  const label = mode === 'dark' ? t('theme.toLight') : t('theme.toDark');
  return (
    <AuthButton
      variant="text"
      className="auth-btn-icon"
      icon={mode === 'dark' ? 'sun' : 'moon'}
      aria-label={label}
      title={label}
      data-testid="theme-switch"
      data-theme-mode={mode}
      onClick={toggleThemeMode}
    />
  );
}

/**
 * Frame of the public sign-in screens, without antd: brand panel with the product claims (md and
 * wider), the form card, language and theme switches (auth.css follows the console's theme).
 */
export function AuthLayout({ title, subtitle, children }: TAuthLayoutProps) {
  const { t } = useTranslation('auth');
  const figures = useClaims();
  const claims = [
    { icon: 'global', value: figures.residential_ips, label: t('claims.ips') },
    { icon: 'thunderbolt', value: String(figures.countries), label: t('claims.countries') },
    { icon: 'safetyCertificate', value: figures.uptime, label: t('claims.uptime') },
  ] as const;

  return (
    <div className="auth-page">
      <div className="auth-brand">
        <h2>{PRODUCT_NAME}</h2>
        <p>{t('brand.tagline')}</p>
        <ul className="auth-claims">
          {claims.map((claim) => (
            <li key={claim.label}>
              <Icon name={claim.icon} />
              <div>
                <div className="auth-claim-value">{claim.value}</div>
                <div className="auth-claim-label">{claim.label}</div>
              </div>
            </li>
          ))}
        </ul>
      </div>
      <main className="auth-main">
        <div className="auth-toolbar">
          <LanguageButtons />
          <ThemeButton />
        </div>
        <div className="auth-center">
          <div className="auth-card">
            <span className="auth-product">{PRODUCT_NAME}</span>
            <h1 className={`auth-title${subtitle ? ' auth-title-with-subtitle' : ''}`}>{title}</h1>
            {subtitle ? <p className="auth-subtitle">{subtitle}</p> : null}
            {children}
          </div>
        </div>
      </main>
    </div>
  );
}
