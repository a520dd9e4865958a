import i18next, { type i18n as TI18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { resolveLang, type TLang } from '@proxy/contract/light';
import { readValue, writeRecord } from './storage';

/** Namespaces of the shell itself; each feature adds its folder name as a namespace. */
export const SHELL_NAMESPACES = ['common', 'errors'] as const;

const LANG_KEY = 'LANG';

type TJsonModule = Record<string, unknown>;
type TResources = Record<TLang, Record<string, TJsonModule>>;

/** Builds i18next resources from `src/locales/<lang>/<ns>.json` and `src/features/<ns>/locales/<lang>.json`. */
export function collectResources(
  shell: Record<string, TJsonModule>,
  features: Record<string, TJsonModule>,
): TResources {
  const resources: TResources = { zh: {}, en: {} };
  const add = (lang: string, ns: string, texts: TJsonModule) => {
    if (lang !== 'zh' && lang !== 'en') return;
    resources[lang][ns] = texts;
    // "ip-lists" is also reachable as "ipLists", the spelling of TAppRoute's doc example.
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

/** Which features' texts: those of the public screens only, or every feature's. */
export type TLocaleScope = 'public' | 'all';

/** Features whose screens are public; their texts come in a chunk of their own (lib/feature-locales-public-<lang>.ts). */
export const PUBLIC_NAMESPACES = ['auth', 'invite', 'renewal-cancel', 'supply-contact'] as const;

type TLocaleModule = () => Promise<{ featureLocales: Record<string, TJsonModule> }>;
const FEATURE_LOCALES: Record<TLocaleScope, Record<TLang, TLocaleModule>> = {
  public: { zh: () => import('./feature-locales-public-zh'), en: () => import('./feature-locales-public-en') },
  all: { zh: () => import('./feature-locales-zh'), en: () => import('./feature-locales-en') },
};
const loadedFeatureLocales = new Set<string>(
  import.meta.env.MODE === 'test' ? ['zh:all', 'en:all', 'zh:public', 'en:public'] : [],
);
const pendingFeatureLocales = new Map<string, Promise<void>>();

/**
 * Loads the texts of every feature in a language (one chunk per language), once; with scope
 * "public", only those of the public screens (a smaller chunk). The router awaits it before a
 * screen or a layout renders, so sign-in downloads neither another screen's texts nor every
 * feature's.
 */
export function loadFeatureLocales(lang: TLang = getLanguage(), scope: TLocaleScope = 'all'): Promise<void> {
  const key = `${lang}:${scope}`;
  if (loadedFeatureLocales.has(key) || loadedFeatureLocales.has(`${lang}:all`)) return Promise.resolve();
  let pending = pendingFeatureLocales.get(key);
  if (!pending) {
    pending = FEATURE_LOCALES[scope][lang]().then(({ featureLocales }) => {
      const loaded = collectResources({}, featureLocales)[lang];
      for (const [ns, texts] of Object.entries(loaded)) i18n.addResourceBundle(lang, ns, texts, true, false);
      loadedFeatureLocales.add(key);
    });
    // A failed load (network) may be retried by the next navigation.
    pending.catch(() => pendingFeatureLocales.delete(key));
    pendingFeatureLocales.set(key, pending);
  }
  return pending;
}

/** The scope of texts loaded in a language so far (what a switch to another language loads). */
function loadedScope(lang: TLang): TLocaleScope {
  return loadedFeatureLocales.has(`${lang}:all`) || pendingFeatureLocales.has(`${lang}:all`) ? 'all' : 'public';
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
  const scope = loadedScope(getLanguage());
  if (loadedFeatureLocales.has(`${lang}:all`) || loadedFeatureLocales.has(`${lang}:${scope}`)) apply();
  else void loadFeatureLocales(lang, scope).then(apply, apply);
}

/** Translates a key outside React (e.g. in the request layer). */
export function translate(key: string, options?: Record<string, unknown>): string {
  return i18n.t(key, options);
}
