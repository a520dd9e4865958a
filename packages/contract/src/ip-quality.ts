import { z } from 'zod';
import { addressScope } from './ip';
import { defineRoute, type TRouteDef } from './route-def';

/** The IP quality check (GET /api/v1/ip-quality/{ip}) and the caller's own address. */

/** Network kinds of the IP quality check ("unknown" where the data does not say). */
export const IP_NETWORK_KINDS = ['hosting', 'isp', 'mobile', 'education', 'unknown'] as const;
/** A network kind. */
export type TIpNetworkKind = (typeof IP_NETWORK_KINDS)[number];
/** Address scopes of the contract's addressScope(). */
export const IP_ADDRESS_SCOPES = [
  'public',
  'loopback',
  'private',
  'link-local',
  'unspecified',
  'multicast',
  'reserved',
] as const;

/** An IP address to check: required, and a single IPv4 or IPv6 address. */
export const zIpAddress = z
  .string({ error: 'ipAddressRequired' })
  .trim()
  .min(1, { error: 'ipAddressRequired', abort: true })
  .max(64, { error: 'ipAddressInvalid', abort: true })
  .refine((v) => addressScope(v) !== null, { error: 'ipAddressInvalid' });

const zBothLangs = z.object({ zh: z.string(), en: z.string() });

/** One reason behind a risk score: points added (0 for notes) and its text in both languages. */
export const ZIpRiskReason = z.object({
  code: z.string(),
  points: z.number().int(),
  text: zBothLangs,
});

/** One data set behind an IP quality answer. */
export const ZIpDataSource = z.object({
  kind: z.enum(['geolocation', 'asn']),
  name: z.string(),
  package: z.string(),
  version: z.string(),
  /** Build date of the data (YYYY-MM-DD). */
  date: z.string(),
  license: z.string(),
});

/**
 * GET /v1/ip-quality/{ip}. Private, loopback and other non-public addresses
 * are answered with their scope, no location and a null score (they have no
 * public owner); malformed addresses are a BAD_REQUEST.
 */
export const ZIpQuality = z
  .object({
    /** Canonical form (IPv4-mapped IPv6 becomes IPv4). */
    ip: z.string(),
    family: z.union([z.literal(4), z.literal(6)]),
    scope: z.enum(IP_ADDRESS_SCOPES),
    is_public: z.boolean(),
    location: z
      .object({
        country_code: z.string(),
        country_name: zBothLangs,
        /** Flag emoji of the country. */
        flag: z.string(),
        region: z.string(),
        city: z.string(),
        latitude: z.number().nullable(),
        longitude: z.number().nullable(),
        timezone: z.string(),
      })
      .nullable(),
    asn: z.object({ number: z.number().int(), organization: z.string() }).nullable(),
    /** Null for non-public addresses. */
    network_kind: z.enum(IP_NETWORK_KINDS).nullable(),
    /** Rule that decided the kind: "asn:<n>", "name:<kind>" or "none". */
    network_kind_rule: z.string().nullable(),
    is_our_exit: z.boolean(),
    is_blacklisted: z.boolean(),
    /** The caller's blacklist entries that contain the address. */
    blacklist_entries: z.array(z.string()),
    /** 0 (clean) to 100; null for non-public addresses. */
    risk_score: z.number().int().min(0).max(100).nullable(),
    risk_level: z.enum(['low', 'medium', 'high']).nullable(),
    reasons: z.array(ZIpRiskReason),
    /** Why there is no score (non-public addresses), else null. */
    note: zBothLangs.nullable(),
    data: z.object({
      sources: z.array(ZIpDataSource),
      /** Date of the network-kind rule set. */
      rules_date: z.string(),
      checked_at: z.string(),
    }),
  })
  .meta({
    examples: [
      {
        ip: '8.8.8.8',
        family: 4,
        scope: 'public',
        is_public: true,
        location: {
          country_code: 'US',
          country_name: { zh: '美国', en: 'United States' },
          flag: '🇺🇸',
          region: '',
          city: '',
          latitude: 37.751,
          longitude: -97.822,
          timezone: 'America/Chicago',
        },
        asn: { number: 15169, organization: 'GOOGLE' },
        network_kind: 'hosting',
        network_kind_rule: 'asn:15169',
        is_our_exit: false,
        is_blacklisted: false,
        blacklist_entries: [],
        risk_score: 40,
        risk_level: 'medium',
        reasons: [{ code: 'hosting', points: 40, text: { zh: '数据中心网络', en: 'Data-center network' } }],
        note: null,
        data: {
          sources: [
            {
              kind: 'asn',
              name: 'ASN',
              package: '@ip-location-db/asn',
              version: '2.3.2026061719',
              date: '2026-06-17',
              license: 'CC BY 4.0',
            },
          ],
          rules_date: '2026-06-01',
          checked_at: '2026-11-22T08:00:00.000Z',
        },
      },
    ],
  });
/** Parsed IP quality answer. */
export type TIpQuality = z.infer<typeof ZIpQuality>;

/** IP quality check and the caller's address. */
export const IP_QUALITY_ROUTES = {
  ipQuality: defineRoute({
    method: 'GET',
    path: '/v1/ip-quality/:ip',
    auth: 'user-or-key',
    summary:
      'IP quality check from offline data: location, network owner and kind, our exit, your blacklist, risk score with reasons (non-public addresses: scope only, score null)',
    tag: 'tools',
    input: z.object({ ip: zIpAddress }),
    output: ZIpQuality,
  }),
  userMyIp: defineRoute({
    method: 'GET',
    path: '/user/my-ip',
    auth: 'user',
    summary: 'Your public address as the server sees it (the IP check default)',
    tag: 'tools',
    output: z.object({ ip: z.string() }),
  }),
} as const satisfies Record<string, TRouteDef>;
