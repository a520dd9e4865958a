/** The Chinese texts of every feature, one chunk loaded when the console starts in (or switches to) Chinese. */
export const featureLocales = import.meta.glob<Record<string, unknown>>('../features/*/locales/zh.json', { eager: true });
