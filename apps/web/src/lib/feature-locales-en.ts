/** The English texts of every feature, one chunk loaded when the console starts in (or switches to) English. */
export const featureLocales = import.meta.glob<Record<string, unknown>>('../features/*/locales/en.json', { eager: true });
