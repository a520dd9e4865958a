import { featureLocales as publicLocales } from './feature-locales-public-zh';

/** The Chinese texts of every feature, one chunk loaded when the console starts in (or switches to) Chinese. */
export const featureLocales: Record<string, Record<string, unknown>> = {
  ...publicLocales,
  ...import.meta.glob<Record<string, unknown>>(
    ['../features/*/locales/zh.json', '!../features/{auth,invite,renewal-cancel}/locales/zh.json'],
    { eager: true },
  ),
};
