import { z } from 'zod';
import { ZPageQuery, zPage } from './envelope';
import { zAreaOption, zCountryOption, zSesstime } from './endpoint-generator-options';
import { EXPORT_LINE_FORMATS } from './proxies-tokens';
import { defineRoute, type TRouteDef } from './route-def';
import { zId, zIdParam, zJsonNumber } from './validators';

/**
 * Shared schemas of the endpoint generator (spider records: POST
 * /token/create/spider, GET /token/spider/records, GET
 * /token/spider/record/file/{id}). The customer API's endpoint lines
 * (/api/v1) are in customer-api.ts.
 */

/** Session modes of generated endpoints: a new exit per connection, or a sticky session id per line. */
export const ENDPOINT_SESSIONS = ['rotating', 'sticky'] as const;
/** A session mode. */
export type TEndpointSession = (typeof ENDPOINT_SESSIONS)[number];
/** Most lines of one endpoint file. */
export const SPIDER_COUNT_MAX = 10_000;
/** Sticky minutes when none are given. */
export const SESSTIME_DEFAULT_MINUTES = 10;

/**
 * Body of POST /token/create/spider. Area options apply to dynamic tokens
 * (static tokens are pinned: their file has one plain line). `sesstime` is for
 * sticky sessions only (default 10 minutes).
 */
export const ZCreateSpiderBody = z
  .object({
    token_id: zJsonNumber('tokenRequired')
      .int({ error: 'invalidValue' })
      .positive({ error: 'tokenRequired' })
      .max(Number.MAX_SAFE_INTEGER, { error: 'invalidValue' }),
    country_id: zCountryOption,
    state_id: zAreaOption,
    city_id: zAreaOption,
    session: z.enum(ENDPOINT_SESSIONS, { error: 'invalidValue' }).default('rotating'),
    sesstime: zSesstime,
    line: z.enum(EXPORT_LINE_FORMATS, { error: 'invalidValue' }).default('hpup'),
    count: zJsonNumber('spiderCountRange')
      .int({ error: 'spiderCountRange' })
      .min(1, { error: 'spiderCountRange' })
      .max(SPIDER_COUNT_MAX, { error: 'spiderCountRange' }),
  })
  .refine((v) => v.session === 'sticky' || v.sesstime === undefined, {
    error: 'sesstimeStickyOnly',
    path: ['sesstime'],
  })
  .refine((v) => !v.city_id || v.state_id, { error: 'stateRequired', path: ['state_id'] })
  .refine((v) => !v.state_id || v.country_id, { error: 'countryRequired', path: ['country_id'] });
/** Parsed endpoint file request. */
export type TCreateSpiderBody = z.infer<typeof ZCreateSpiderBody>;

/** Settings an endpoint file was made with. */
export const ZSpiderParams = z.object({
  country_id: z.string(),
  state_id: z.string(),
  city_id: z.string(),
  session: z.enum(ENDPOINT_SESSIONS),
  /** Sticky minutes; null for rotating. */
  sesstime: z.number().int().nullable(),
  line: z.enum(EXPORT_LINE_FORMATS),
  /** Lines asked for (a static token's file has one). */
  count: z.number().int(),
});
/** Parsed endpoint file settings. */
export type TSpiderParams = z.infer<typeof ZSpiderParams>;

/** An endpoint file (spider record) as the list shows it. */
export const ZSpiderRecord = z.object({
  id: z.number().int(),
  token_id: z.number().int(),
  /** The token's own username (without options). */
  token_username: z.string(),
  params: ZSpiderParams,
  line_count: z.number().int(),
  /** Download name, e.g. "endpoints-12.txt". */
  filename: z.string(),
  created_at: z.string(),
});
/** Parsed endpoint file. */
export type TSpiderRecord = z.infer<typeof ZSpiderRecord>;
/** Answer of POST /token/create/spider: the record and its lines (to copy at once). */
export const ZSpiderRecordWithLines = ZSpiderRecord.extend({ lines: z.array(z.string()) });
/** Parsed new endpoint file. */
export type TSpiderRecordWithLines = z.infer<typeof ZSpiderRecordWithLines>;
/** Query of GET /token/spider/records: paging and an optional token. */
export const ZSpiderRecordsQuery = ZPageQuery.extend({ token_id: zId.optional() });
/** A page of endpoint files. */
export const ZSpiderRecordPage = zPage(ZSpiderRecord);

/** Endpoint files (spider records). */
export const SPIDER_ROUTES = {
  tokenSpiderRecords: defineRoute({
    method: 'GET',
    path: '/token/spider/records',
    auth: 'user',
    summary: 'Generated endpoint files, newest first',
    tag: 'proxy',
    input: ZSpiderRecordsQuery,
    output: ZSpiderRecordPage,
  }),
  tokenCreateSpider: defineRoute({
    method: 'POST',
    path: '/token/create/spider',
    auth: 'user',
    summary:
      'Generate an endpoint file: count lines of one proxy with area, session (rotating or sticky with sesstime) and line format',
    tag: 'proxy',
    input: ZCreateSpiderBody,
    output: ZSpiderRecordWithLines,
  }),
  tokenSpiderFile: defineRoute({
    method: 'GET',
    path: '/token/spider/record/file/:id',
    auth: 'user',
    summary: 'Download an endpoint file (text, one endpoint per line)',
    tag: 'proxy',
    input: zIdParam,
    isBlob: true,
  }),
} as const satisfies Record<string, TRouteDef>;
