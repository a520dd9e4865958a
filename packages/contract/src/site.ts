import { z } from 'zod';
import { defineRoute, type TRouteDef } from './route-def';

/**
 * The marketing figures (spec section 1: residential IPs, countries, uptime) as the operator set them in the system
 * settings, the spec's figures (CLAIMS) until then (docs/operator-guide.md, "Marketing figures").
 */
export const ZClaims = z.object({ residential_ips: z.string(), countries: z.number().int(), uptime: z.string() });
/** The marketing figures shown. */
export type TClaims = z.infer<typeof ZClaims>;

/** Settings the console reads at run time (not fixed at build time). */
export const ZSiteSettings = z.object({
  /** The external help-center site (HELP_CENTER_URL); null hides the menu entry. */
  help_center_url: z.string().nullable(),
  /** The marketing figures every page that names them shows. */
  claims: ZClaims,
});
export type TSiteSettings = z.infer<typeof ZSiteSettings>;

/** The terms of service as markdown, in the caller's language. */
export const ZSiteTerms = z.object({
  lang: z.enum(['zh', 'en']),
  markdown: z.string(),
  /** "custom": the operator's file in DATA_DIR/terms; "default": the text shipped with the product. */
  source: z.enum(['custom', 'default']),
  /** When the operator's file was last changed (ISO 8601), null for the shipped text. */
  updated_at: z.string().nullable(),
});
export type TSiteTerms = z.infer<typeof ZSiteTerms>;

/** The notice the operator published last, in the caller's language. */
export const ZSiteNotice = z.object({
  notice_id: z.number().int(),
  title: z.string(),
  content: z.string(),
  published_at: z.string(),
});
export type TSiteNotice = z.infer<typeof ZSiteNotice>;

const noticeText = (max: number) =>
  z.string({ error: 'required' }).trim().min(1, { error: 'required' }).max(max, { error: 'tooLong' });

/** A notice as the operator writes it, in both languages. */
export const ZNoticePublishBody = z.object({
  title_zh: noticeText(100),
  title_en: noticeText(100),
  content_zh: noticeText(4000),
  content_en: noticeText(4000),
});

/** A published notice with both languages (operator view). */
export const ZSiteNoticeFull = z.object({
  notice_id: z.number().int(),
  title_zh: z.string(),
  title_en: z.string(),
  content_zh: z.string(),
  content_en: z.string(),
  published_at: z.string(),
});

/** The console's own content: run-time settings, terms of service, the notice. */
export const SITE_ROUTES = {
  siteSettings: defineRoute({
    method: 'GET',
    path: '/site/settings',
    auth: 'none',
    summary: 'Run-time settings of the console (help-center link, marketing figures)',
    tag: 'site',
    output: ZSiteSettings,
  }),
  siteTerms: defineRoute({
    method: 'GET',
    path: '/site/terms',
    auth: 'none',
    summary: 'Terms of service (markdown) in the Lang language',
    tag: 'site',
    output: ZSiteTerms,
  }),
  siteNotice: defineRoute({
    method: 'GET',
    path: '/site/notice',
    auth: 'user',
    summary: 'The notice published last (null when none)',
    tag: 'site',
    output: ZSiteNotice.nullable(),
  }),
} as const satisfies Record<string, TRouteDef>;

/** Operator calls: publishing the notice (every user sees it again, "do not show again" resets). */
export const SITE_ADMIN_ROUTES = {
  adminNoticePublish: defineRoute({
    method: 'POST',
    path: '/admin/site/notice',
    auth: 'admin',
    summary: 'Publish a new notice (zh and en)',
    tag: 'admin',
    input: ZNoticePublishBody,
    output: ZSiteNoticeFull,
  }),
  adminNoticeCurrent: defineRoute({
    method: 'GET',
    path: '/admin/site/notice',
    auth: 'admin',
    summary: 'The notice published last, both languages (null when none)',
    tag: 'admin',
    output: ZSiteNoticeFull.nullable(),
  }),
} as const satisfies Record<string, TRouteDef>;
