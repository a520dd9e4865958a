import { useEffect, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../lib/i18n';
import { queryClient } from '../lib/query-client';
import { useThemeMode } from '../lib/theme';

/** Page background, text colour (global.css, per data-theme) and native controls follow the theme. */
function DocumentTheme() {
  const isDark = useThemeMode() === 'dark';
  useEffect(() => {
    document.documentElement.style.colorScheme = isDark ? 'dark' : 'light';
    document.documentElement.dataset.theme = isDark ? 'dark' : 'light';
  }, [isDark]);
  return null;
}

/**
 * Query client, i18n and the document's theme: what every page needs. antd's
 * providers (theme, locale, message APIs) come with the screens built with it
 * (app/antd-providers.tsx), so the sign-in pages load no antd.
 */
export function AppProviders(props: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={i18n}>
        <DocumentTheme />
        {props.children}
      </I18nextProvider>
    </QueryClientProvider>
  );
}
