import { describe, expect, it } from 'vitest';

/**
 * Every namespace (shell: src/locales/<lang>/<ns>.json; features:
 * src/features/<ns>/locales/<lang>.json) has the same keys in zh and en, and
 * zh texts are Chinese.
 */

type TTree = { [key: string]: string | TTree };

const shellFiles = import.meta.glob<TTree>('./*/*.json', { eager: true, import: 'default' });
const featureFiles = import.meta.glob<TTree>('../features/*/locales/*.json', { eager: true, import: 'default' });

/**
 * zh texts that are rightly not Chinese: brand and product names, protocol and
 * unit names, and code-like samples. Keep this list short and exact.
 */
const NON_CHINESE_ALLOWED = new Set([
  'English',
  'ProxyHub',
  'GitHub',
  'Google',
  'USDT',
  'HTTP',
  'HTTPS',
  'SOCKS5',
  'CONNECT',
  'API',
  'API Key',
  'IP',
  'GB',
  'ID',
  'Email',
  'E-mail',
  'name@example.com',
  'you@example.com',
  'host:port:user:pass',
  'https://example.com/hooks/proxyhub',
]);

function flatten(tree: TTree, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out[path] = value;
    else Object.assign(out, flatten(value, path));
  }
  return out;
}

function collectNamespaces(): Map<string, Partial<Record<'zh' | 'en', Record<string, string>>>> {
  const namespaces = new Map<string, Partial<Record<'zh' | 'en', Record<string, string>>>>();
  const add = (ns: string, lang: string, tree: TTree) => {
    if (lang !== 'zh' && lang !== 'en') throw new Error(`unexpected language file ${ns}/${lang}`);
    const entry = namespaces.get(ns) ?? {};
    entry[lang] = flatten(tree);
    namespaces.set(ns, entry);
  };
  for (const [file, tree] of Object.entries(shellFiles)) {
    const [, lang, ns] = /\.\/(\w+)\/([\w-]+)\.json$/.exec(file)!;
    add(ns, lang, tree);
  }
  for (const [file, tree] of Object.entries(featureFiles)) {
    const [, ns, lang] = /features\/([\w-]+)\/locales\/(\w+)\.json$/.exec(file)!;
    add(`features/${ns}`, lang, tree);
  }
  return namespaces;
}

/** Unit and protocol words that may stand next to placeholders, e.g. "{{price}} / GB". */
const NON_CHINESE_WORDS = new Set([
  'GB',
  'MB',
  'TB',
  'IP',
  'IPs',
  'HTTP',
  'HTTPS',
  'SOCKS5',
  'USDT',
  'ERC20',
  'TRC20',
  'API',
  'ID',
  'ms',
  's',
]);

/** True when, placeholders aside, only unit or protocol words remain. */
function isOnlyUnits(text: string): boolean {
  const words = withoutPlaceholders(text)
    .split(/[\s\p{P}\p{S}\d]+/u)
    .filter(Boolean);
  return words.length > 0 && words.every((w) => NON_CHINESE_WORDS.has(w));
}

const HAS_CHINESE = /[\u3400-\u9fff]/;
/** Placeholders and punctuation only (e.g. "{{count}}", "—"): nothing to translate. */
const NOTHING_TO_TRANSLATE = /^[\s\d\p{P}\p{S}]*$/u;

function withoutPlaceholders(text: string): string {
  return text.replace(/\{\{[^}]*\}\}|\{\w+\}/g, '');
}

const namespaces = collectNamespaces();

describe('translations', () => {
  it('include the shell namespaces', () => {
    expect(namespaces.has('common')).toBe(true);
    expect(namespaces.has('errors')).toBe(true);
  });

  for (const [ns, langs] of namespaces) {
    it(`${ns}: zh and en have identical key sets`, () => {
      expect(langs.zh, `${ns} has no zh file`).toBeDefined();
      expect(langs.en, `${ns} has no en file`).toBeDefined();
      const zhKeys = Object.keys(langs.zh!).sort();
      const enKeys = Object.keys(langs.en!).sort();
      expect(
        zhKeys.filter((k) => !enKeys.includes(k)),
        `${ns}: keys missing in en`,
      ).toEqual([]);
      expect(
        enKeys.filter((k) => !zhKeys.includes(k)),
        `${ns}: keys missing in zh`,
      ).toEqual([]);
    });

    it(`${ns}: zh values contain Chinese`, () => {
      const notChinese = Object.entries(langs.zh ?? {})
        .filter(([, text]) => !HAS_CHINESE.test(text))
        .filter(([, text]) => !NON_CHINESE_ALLOWED.has(text.trim()))
        .filter(([, text]) => !NOTHING_TO_TRANSLATE.test(withoutPlaceholders(text)))
        .filter(([, text]) => !isOnlyUnits(text))
        .map(([key, text]) => `${key}: ${text}`);
      expect(notChinese).toEqual([]);
    });

    it(`${ns}: no empty texts`, () => {
      for (const lang of ['zh', 'en'] as const) {
        const empty = Object.entries(langs[lang] ?? {}).filter(([, text]) => text.trim() === '');
        expect(empty.map(([key]) => `${lang}:${key}`)).toEqual([]);
      }
    });
  }
});
