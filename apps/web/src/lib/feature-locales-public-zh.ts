/**
 * The Chinese texts of the features whose screens are public (sign-in, registration, an invite
 * link, the pages e-mails link to): the one chunk of feature texts a public page loads (see PUBLIC_NAMESPACES in i18n.ts).
 */
export const featureLocales = import.meta.glob<Record<string, unknown>>(
  '../features/{auth,invite,renewal-cancel,supply-contact}/locales/zh.json',
  { eager: true },
);
