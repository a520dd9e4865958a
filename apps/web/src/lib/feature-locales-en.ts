import { featureLocales as publicLocales } from './feature-locales-public-en';

/** The English texts of every feature, one chunk loaded when the console starts in (or switches to) English. */
export const featureLocales: Record<string, Record<string, unknown>> = {
  ...publicLocales,
  ...import.meta.glob<Record<string, unknown>>(
    ['../features/*/locales/en.json', '!../features/{auth,invite,renewal-cancel}/locales/en.json'],
    { eager: true },
  ),
};
