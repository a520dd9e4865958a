import { createContext, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { App as AntdApp, ConfigProvider, theme, type ThemeConfig } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import enUS from 'antd/es/locale/en_US';
import { useTranslation } from 'react-i18next';
import { PRIMARY_COLOR } from '@proxy/contract/light';
import { AntdAccessibility } from '../components/antd-accessibility';
import { registerMessageApis } from '../lib/message';
import { usePrefersReducedMotion } from '../lib/reduced-motion';
import { useThemeMode } from '../lib/theme';

/*
 * antd's theme, locale and message/modal APIs, around the screens built with
 * antd only: the router loads this module with the signed-in layouts and
 * with a public screen that is not marked `isLight`; the sign-in pages load
 * no antd at all. The page background follows the theme in global.css.
 */

/** Hands antd's themed message and modal APIs to lib/message (usable outside React). */
function AntdBridge() {
  const { message, modal } = AntdApp.useApp();
  useEffect(() => {
    registerMessageApis({ message, modal });
    return () => registerMessageApis(null, message);
  }, [message, modal]);
  return null;
}

/*
 * Contrast (WCAG 2 AA, 4.5:1 for text), set here once for every screen:
 * antd's faint greys (description text, placeholders, Descriptions labels at
 * 25-45 % alpha) take the secondary text's alpha; success, warning and error
 * text use darker shades in light mode (danger buttons included). In dark
 * mode the algorithm darkens the primary colour (rgb(3,79,220)), fine behind
 * white button text but too dark as text on dark surfaces: links,
 * primary-coloured text, the selected menu entry, its group and the active
 * tab use a lighter blue. Tags and outlined danger buttons are in global.css.
 */
const LIGHT_THEME: ThemeConfig = {
  algorithm: theme.defaultAlgorithm,
  // antd's link colour is a seed of its own (#1677ff, 4.1:1 on white), not derived from the primary colour.
  token: {
    colorPrimary: PRIMARY_COLOR,
    colorLink: PRIMARY_COLOR,
    colorTextDescription: 'rgba(0, 0, 0, 0.65)',
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.55)',
    colorError: '#cf1322',
    colorSuccessText: '#237804',
    colorWarningText: '#874d00',
  },
  components: {
    Descriptions: { labelColor: 'rgba(0, 0, 0, 0.65)' },
  },
};
const DARK_PRIMARY_TEXT = '#6ea2ff';
const DARK_THEME: ThemeConfig = {
  algorithm: theme.darkAlgorithm,
  token: {
    colorPrimary: PRIMARY_COLOR,
    colorTextDescription: 'rgba(255, 255, 255, 0.65)',
    colorTextPlaceholder: 'rgba(255, 255, 255, 0.55)',
    colorLink: DARK_PRIMARY_TEXT,
    colorLinkHover: '#9dc0ff',
    colorPrimaryText: DARK_PRIMARY_TEXT,
    colorPrimaryTextHover: '#9dc0ff',
  },
  components: {
    Menu: {
      itemSelectedColor: DARK_PRIMARY_TEXT,
      darkItemSelectedColor: DARK_PRIMARY_TEXT,
      subMenuItemSelectedColor: DARK_PRIMARY_TEXT,
      groupTitleColor: 'rgba(255, 255, 255, 0.65)',
    },
    Tabs: { itemSelectedColor: DARK_PRIMARY_TEXT, itemActiveColor: DARK_PRIMARY_TEXT },
    Descriptions: { labelColor: 'rgba(255, 255, 255, 0.65)' },
  },
};

function ThemedAntd(props: { children: ReactNode }) {
  const { i18n: instance } = useTranslation();
  const mode = useThemeMode();
  const isDark = mode === 'dark';
  const isMotionReduced = usePrefersReducedMotion();
  const themeConfig = useMemo(() => {
    const base = isDark ? DARK_THEME : LIGHT_THEME;
    return isMotionReduced ? { ...base, token: { ...base.token, motion: false } } : base;
  }, [isDark, isMotionReduced]);
  return (
    <ConfigProvider
      locale={instance.language === 'en' ? enUS : zhCN}
      // Buttons read exactly "确定"/"取消" (spec section 4), not "确 定".
      button={{ autoInsertSpace: false }}
      theme={themeConfig}
    >
      <AntdApp>
        <AntdBridge />
        <AntdAccessibility />
        {props.children}
      </AntdApp>
    </ConfigProvider>
  );
}

const InsideAntd = createContext(false);

/** antd's theme (primary #0059ff, dark algorithm), locale following the language, and <App> for messages; once, however nested. */
export function AntdProviders(props: { children: ReactNode }) {
  if (useContext(InsideAntd)) return <>{props.children}</>;
  return (
    <InsideAntd.Provider value={true}>
      <ThemedAntd>{props.children}</ThemedAntd>
    </InsideAntd.Provider>
  );
}
