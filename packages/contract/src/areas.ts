import { z } from 'zod';
import { PROXY_BILLINGS, PROXY_CATEGORIES, PROXY_PRODUCTS } from './proxies-tokens';
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

/**
 * The 249 ISO 3166-1 alpha-2 country codes, lower-cased (i18n-iso-countries' list without the
 * user-assigned "xk"; a server test keeps the two equal). Kept as text: the console's supply form reads it.
 */
export const ISO_COUNTRY_CODES: readonly string[] = (
  'ad ae af ag ai al am ao aq ar as at au aw ax az ba bb bd be bf bg bh bi bj bl bm bn bo bq br bs bt ' +
  'bv bw by bz ca cc cd cf cg ch ci ck cl cm cn co cr cu cv cw cx cy cz de dj dk dm do dz ec ee eg eh ' +
  'er es et fi fj fk fm fo fr ga gb gd ge gf gg gh gi gl gm gn gp gq gr gs gt gu gw gy hk hm hn hr ht ' +
  'hu id ie il im in io iq ir is it je jm jo jp ke kg kh ki km kn kp kr kw ky kz la lb lc li lk lr ls ' +
  'lt lu lv ly ma mc md me mf mg mh mk ml mm mn mo mp mq mr ms mt mu mv mw mx my mz na nc ne nf ng ni ' +
  'nl no np nr nu nz om pa pe pf pg ph pk pl pm pn pr ps pt pw py qa re ro rs ru rw sa sb sc sd se sg ' +
  'sh si sj sk sl sm sn so sr ss st sv sx sy sz tc td tf tg th tj tk tl tm tn to tr tt tv tw tz ua ug ' +
  'um us uy uz va vc ve vg vi vn vu wf ws ye yt za zm zw'
).split(' ');

const ISO_COUNTRY_SET: ReadonlySet<string> = new Set(ISO_COUNTRY_CODES);

/** True when `code` (lower case) is an ISO 3166-1 alpha-2 country code. */
export function isIsoCountryCode(code: string): boolean {
  return ISO_COUNTRY_SET.has(code);
}

/**
 * The product an area list is for (docs/pools.md, "What customers see"): given, the list is what that product can
 * be bought in (a dynamic traffic product's areas include those upstream pools serve) and every area says what
 * serves it and whether it can be bought now; left out, the list is the exits' areas as before, without those
 * fields.
 */
export const zAreaOffer = {
  product: z.enum(PROXY_PRODUCTS, { error: 'invalidValue' }).optional(),
  billing: z.enum(PROXY_BILLINGS, { error: 'invalidValue' }).optional(),
};

/** Query of the area lists: category (isp by default), the product it is for, and the parent codes. */
export const ZAreaQuery = z.object({
  category: z.enum(PROXY_CATEGORIES, { error: 'invalidValue' }).default('isp'),
  ...zAreaOffer,
});

/** What serves an area for the product asked: exits of the inventory, upstream pools, or both. */
export const AREA_SUPPLIES = ['exits', 'pool', 'both'] as const;
/** What serves an area. */
export type TAreaSupply = (typeof AREA_SUPPLIES)[number];

/**
 * One area with inventory: code, names and how many exits are available (`available`, a count of exits, as
 * before). With a product asked: `supply` (what serves it) and `is_available` (it can be bought now: an exits-only
 * area by its exits, a pool-served one while a serving pool is enabled and not failing on most gateways).
 */
export const ZArea = z
  .object({
    id: z.string(),
    name: z.string(),
    name_zh: z.string(),
    name_en: z.string(),
    available: z.number().int(),
    supply: z.enum(AREA_SUPPLIES).optional(),
    is_available: z.boolean().optional(),
  })
  .meta({
    examples: [
      { id: 'us', name: 'United States', name_zh: '美国', name_en: 'United States', available: 12 },
      {
        id: 'br',
        name: 'Brazil',
        name_zh: '巴西',
        name_en: 'Brazil',
        available: 0,
        supply: 'pool',
        is_available: true,
      },
    ],
  });
/** Parsed area. */
export type TArea = z.infer<typeof ZArea>;

/** The operator's fair-use traffic as the purchase form shows it (docs/pools.md, "What customers see"). */
export const ZFairUse = z.object({ ip_dynamic_gb_per_day: z.number() }).meta({
  examples: [{ ip_dynamic_gb_per_day: 5 }],
});
/** Parsed fair-use traffic. */
export type TFairUse = z.infer<typeof ZFairUse>;

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
  tokenFairUse: defineRoute({
    method: 'GET',
    path: '/token/fair-use',
    auth: 'user',
    summary:
      'Traffic included per day in an IP-billed dynamic proxy bought now, in GB (0: none, the proxy has no traffic ' +
      'cap and leaves by exits only)',
    tag: 'proxy',
    output: ZFairUse,
  }),
} as const satisfies Record<string, TRouteDef>;
