import { useEffect, type ReactNode } from 'react';
import { App as AntdApp, ConfigProvider, theme } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import enUS from 'antd/es/locale/en_US';
import { QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { PRIMARY_COLOR } from '@proxy/contract';
import { i18n } from '../lib/i18n';
import { registerMessageApis } from '../lib/message';
import { queryClient } from '../lib/query-client';
import { useThemeMode } from '../lib/theme';

/** Hands antd's themed message and modal APIs to lib/message (usable outside React). */
function AntdBridge() {
  const { message, modal } = AntdApp.useApp();
  useEffect(() => {
    registerMessageApis({ message, modal });
    return () => registerMessageApis(null);
  }, [message, modal]);
  return null;
}

/** Page background and native controls follow the theme. */
function DocumentTheme(props: { isDark: boolean }) {
  const { token } = theme.useToken();
  useEffect(() => {
    document.documentElement.style.colorScheme = props.isDark ? 'dark' : 'light';
    document.documentElement.dataset.theme = props.isDark ? 'dark' : 'light';
    document.body.style.background = token.colorBgLayout;
    document.body.style.color = token.colorText;
  }, [props.isDark, token.colorBgLayout, token.colorText]);
  return null;
}

function ThemedAntd(props: { children: ReactNode }) {
  const { i18n: instance } = useTranslation();
  const mode = useThemeMode();
  const isDark = mode === 'dark';
  return (
    <ConfigProvider
      locale={instance.language === 'en' ? enUS : zhCN}
      // Buttons read exactly "确定"/"取消" (spec section 4), not "确 定".
      button={{ autoInsertSpace: false }}
      theme={{ algorithm: isDark ? theme.darkAlgorithm : theme.defaultAlgorithm, token: { colorPrimary: PRIMARY_COLOR } }}
    >
      <AntdApp>
        <AntdBridge />
        <DocumentTheme isDark={isDark} />
        {props.children}
      </AntdApp>
    </ConfigProvider>
  );
}

/** Query client, i18n, antd theme (primary #0059ff, dark algorithm) and locale following the language. */
export function AppProviders(props: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={i18n}>
        <ThemedAntd>{props.children}</ThemedAntd>
      </I18nextProvider>
    </QueryClientProvider>
  );
}
