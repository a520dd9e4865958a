/** The two interface languages. */
export const LANGS = ['zh', 'en'] as const;
/** An interface language. */
export type TLang = (typeof LANGS)[number];

/**
 * Reads a `Lang` header or a stored/browser language tag: Chinese when it
 * contains "zh", otherwise English (spec sections 1 and 9).
 */
export function resolveLang(tag: string | null | undefined): TLang {
  return tag && tag.toLowerCase().includes('zh') ? 'zh' : 'en';
}

/** Replaces `{name}` placeholders with the given values. */
export function interpolate(text: string, params?: Record<string, string | number>): string {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, key: string) => (key in params ? String(params[key]) : whole));
}
