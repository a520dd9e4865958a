import type { TLang } from '@proxy/contract';

/** A region's name in the interface language ("uk" and "gb" are the United Kingdom); the code when the browser has no name. */
export function regionName(code: string, lang: TLang): string {
  const iso = (code === 'uk' ? 'gb' : code).toUpperCase();
  try {
    return new Intl.DisplayNames([lang === 'zh' ? 'zh-CN' : 'en'], { type: 'region' }).of(iso) ?? iso;
  } catch {
    return iso;
  }
}
