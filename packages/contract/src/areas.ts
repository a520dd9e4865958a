import { z } from 'zod';
import { PROXY_CATEGORIES } from './proxies-tokens';
import { defineRoute, type TRouteDef } from './route-def';

/**
 * Areas with stock (spec section 7): the country, state and city lists of the
 * purchase form, and the country code every area request takes.
 */

/** ISO 3166-1 alpha-2 country code, lower-cased ("us"). */
export const zCountryId = z
  .string({ error: 'countryRequired' })
  .trim()
  .toLowerCase()
  .min(1, { error: 'countryRequired' })
  .regex(/^[a-z]{2}$/, { error: 'invalidValue' });

/** Query of the area lists: category (isp by default) and the parent codes. */
export const ZAreaQuery = z.object({
  category: z.enum(PROXY_CATEGORIES, { error: 'invalidValue' }).default('isp'),
});
/** One area with inventory: code, names and how many exits are available. */
export const ZArea = z
  .object({
    id: z.string(),
    name: z.string(),
    name_zh: z.string(),
    name_en: z.string(),
    available: z.number().int(),
  })
  .meta({ examples: [{ id: 'us', name: 'United States', name_zh: '美国', name_en: 'United States', available: 12 }] });
/** Parsed area. */
export type TArea = z.infer<typeof ZArea>;

/** Areas with stock for the purchase form. */
export const AREA_ROUTES = {
  tokenAreaCountries: defineRoute({
    method: 'GET',
    path: '/token/list/area/countries',
    auth: 'user',
    summary: 'Countries with inventory',
    tag: 'proxy',
    input: ZAreaQuery,
    output: z.array(ZArea),
  }),
  tokenAreaStates: defineRoute({
    method: 'GET',
    path: '/token/list/area/state',
    auth: 'user',
    summary: 'States with inventory in a country',
    tag: 'proxy',
    input: ZAreaQuery.extend({ country_id: zCountryId }),
    output: z.array(ZArea),
  }),
  tokenAreaCities: defineRoute({
    method: 'GET',
    path: '/token/list/area/city',
    auth: 'user',
    summary: 'Cities with inventory in a state',
    tag: 'proxy',
    input: ZAreaQuery.extend({ country_id: zCountryId, state_id: z.string().trim().toLowerCase().max(64).default('') }),
    output: z.array(ZArea),
  }),
} as const satisfies Record<string, TRouteDef>;
