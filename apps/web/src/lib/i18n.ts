import i18next, { type i18n as TI18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { resolveLang, type TLang } from '@proxy/contract';
import { readValue, writeRecord } from './storage';

/** Namespaces of the shell itself; each feature adds its folder name as a namespace. */
export const SHELL_NAMESPACES = ['common', 'errors'] as const;

const LANG_KEY = 'LANG';

type TJsonModule = Record<string, unknown>;
type TResources = Record<TLang, Record<string, TJsonModule>>;

/** Builds i18next resources from `src/locales/<lang>/<ns>.json` and `src/features/<ns>/locales/<lang>.json`. */
export function collectResources(shell: Record<string, TJsonModule>, features: Record<string, TJsonModule>): TResources {
  const resources: TResources = { zh: {}, en: {} };
  const add = (lang: string, ns: string, texts: TJsonModule) => {
    if (lang !== 'zh' && lang !== 'en') return;
    resources[lang][ns] = texts;
    // "user-center" is also reachable as "userCenter", the spelling of TAppRoute's doc example.
    const camel = ns.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    if (camel !== ns) resources[lang][camel] = texts;
  };
  for (const [file, mod] of Object.entries(shell)) {
    const match = /locales\/(\w+)\/([\w-]+)\.json$/.exec(file);
    if (match) add(match[1], match[2], (mod.default ?? mod) as TJsonModule);
  }
  for (const [file, mod] of Object.entries(features)) {
    const match = /features\/([\w-]+)\/locales\/(\w+)\.json$/.exec(file);
    if (match) add(match[2], match[1], (mod.default ?? mod) as TJsonModule);
  }
  return resources;
}

/**
 * The language rule of spec sections 1 and 9: the stored choice, else the
 * browser's (Chinese if it contains "zh", otherwise English).
 */
export function detectLanguage(stored: string | null, browserLanguage: string | undefined): TLang {
  if (stored === 'zh' || stored === 'en') return stored;
  return resolveLang(browserLanguage);
}

function browserLanguage(): string | undefined {
  return typeof navigator === 'undefined' ? undefined : navigator.language;
}

/** Language at start-up; the detected choice is saved (spec section 1). */
export function initialLanguage(): TLang {
  const lang = detectLanguage(readValue<string>('local', LANG_KEY), browserLanguage());
  writeRecord('local', LANG_KEY, lang);
  return lang;
}

// The shell's texts (both languages) come with the entry; a feature's texts load with the first
// screen (see loadFeatureLocales). Tests get every text at once, as screens render outside the router there.
const resources = collectResources(
  import.meta.glob<TJsonModule>('../locales/*/*.json', { eager: true }),
  import.meta.env.MODE === 'test' ? import.meta.glob<TJsonModule>('../features/*/locales/*.json', { eager: true }) : {},
);

const FEATURE_LOCALES: Record<TLang, () => Promise<{ featureLocales: Record<string, TJsonModule> }>> = {
  zh: () => import('./feature-locales-zh'),
  en: () => import('./feature-locales-en'),
};
const loadedFeatureLangs = new Set<TLang>(import.meta.env.MODE === 'test' ? ['zh', 'en'] : []);
const pendingFeatureLangs = new Map<TLang, Promise<void>>();

/**
 * Loads the texts of every feature in a language (one chunk per language), once. The router
 * awaits it before a screen or a layout renders, so sign-in downloads no other screen's texts
 * with its JavaScript.
 */
export function loadFeatureLocales(lang: TLang = getLanguage()): Promise<void> {
  if (loadedFeatureLangs.has(lang)) return Promise.resolve();
  let pending = pendingFeatureLangs.get(lang);
  if (!pending) {
    pending = FEATURE_LOCALES[lang]().then(({ featureLocales }) => {
      const loaded = collectResources({}, featureLocales)[lang];
      for (const [ns, texts] of Object.entries(loaded)) i18n.addResourceBundle(lang, ns, texts, true, false);
      loadedFeatureLangs.add(lang);
    });
    // A failed load (network) may be retried by the next navigation.
    pending.catch(() => pendingFeatureLangs.delete(lang));
    pendingFeatureLangs.set(lang, pending);
  }
  return pending;
}

const startLang = initialLanguage();

/** The console's i18next instance. */
export const i18n: TI18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  resources,
  lng: startLang,
  fallbackLng: startLang === 'zh' ? 'en' : 'zh',
  defaultNS: 'common',
  ns: Object.keys(resources.zh),
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});
applyLanguageSideEffects(startLang);

function applyLanguageSideEffects(lang: TLang): void {
  dayjs.locale(lang === 'zh' ? 'zh-cn' : 'en');
  if (typeof document !== 'undefined') document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
}

/** The interface language now. */
export function getLanguage(): TLang {
  return i18n.language === 'en' ? 'en' : 'zh';
}

/** Switches the interface language and saves the choice (once the features' texts in it are loaded). */
export function setLanguage(lang: TLang): void {
  writeRecord('local', LANG_KEY, lang);
  const apply = () => {
    applyLanguageSideEffects(lang);
    void i18n.changeLanguage(lang);
  };
  if (loadedFeatureLangs.has(lang)) apply();
  else void loadFeatureLocales(lang).then(apply, apply);
}

/** Translates a key outside React (e.g. in the request layer). */
export function translate(key: string, options?: Record<string, unknown>): string {
  return i18n.t(key, options);
}
