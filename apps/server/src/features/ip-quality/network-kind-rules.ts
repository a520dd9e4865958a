import type { TIpNetworkKind } from '@proxy/contract';

/**
 * Network kind of an address from its ASN data: a documented, dated rule set.
 *
 * Rules version: 2026-06-20. Source: the organisation names and AS numbers of
 * the @ip-location-db/asn package (RouteViews + RIR delegations + DB-IP ASN
 * Lite, CC BY 4.0), plus the operators' own public descriptions of the
 * well-known networks listed by number below (PeeringDB "network type" where
 * it says Content/NSP/Cable-DSL-ISP/Educational-Research). Review the list
 * when the data packages are refreshed; keep the date above current.
 *
 * Order of evaluation: the explicit AS numbers first, then the name patterns
 * in the order of NAME_RULES (hosting, education, mobile, ISP). Nothing that
 * matches no rule is guessed: it is "unknown".
 */

/** What kind of network an address belongs to (the contract's IP_NETWORK_KINDS). */
export type TNetworkKind = TIpNetworkKind;

/** Date of this rule set (shown with the answer). */
export const NETWORK_KIND_RULES_DATE = '2026-06-20';

/** Well-known networks by AS number. */
export const KNOWN_ASNS: Readonly<Record<number, Exclude<TNetworkKind, 'unknown'>>> = {
  // Hosting, cloud, CDN and data centres.
  13335: 'hosting', // Cloudflare
  15169: 'hosting', // Google
  396982: 'hosting', // Google Cloud
  16509: 'hosting', // Amazon (AWS)
  14618: 'hosting', // Amazon (AWS)
  8075: 'hosting', // Microsoft
  8068: 'hosting', // Microsoft
  14061: 'hosting', // DigitalOcean
  16276: 'hosting', // OVH
  24940: 'hosting', // Hetzner
  63949: 'hosting', // Linode (Akamai)
  20940: 'hosting', // Akamai
  20473: 'hosting', // Vultr (Choopa)
  45102: 'hosting', // Alibaba Cloud
  37963: 'hosting', // Alibaba (Aliyun)
  132203: 'hosting', // Tencent Cloud
  45090: 'hosting', // Tencent
  31898: 'hosting', // Oracle Cloud
  54113: 'hosting', // Fastly
  51167: 'hosting', // Contabo
  12876: 'hosting', // Scaleway
  36352: 'hosting', // ColoCrossing
  8100: 'hosting', // QuadraNet
  // Fixed-line residential ISPs.
  7922: 'isp', // Comcast
  7018: 'isp', // AT&T
  701: 'isp', // Verizon
  20115: 'isp', // Charter (Spectrum)
  22773: 'isp', // Cox
  4134: 'isp', // China Telecom (Chinanet)
  4812: 'isp', // China Telecom (Shanghai)
  4837: 'isp', // China Unicom
  3320: 'isp', // Deutsche Telekom
  3215: 'isp', // Orange France
  2856: 'isp', // BT
  4713: 'isp', // NTT OCN
  // Mobile carriers.
  9808: 'mobile', // China Mobile
  21928: 'mobile', // T-Mobile US
  22394: 'mobile', // Verizon Wireless
  20057: 'mobile', // AT&T Mobility
  // Education and research networks.
  4538: 'education', // CERNET
  11537: 'education', // Internet2
  2200: 'education', // RENATER
  786: 'education', // Jisc (JANET)
};

/** A name rule: organisation names matching the pattern are of this kind. */
export type TNameRule = { kind: Exclude<TNetworkKind, 'unknown'>; pattern: RegExp; note: string };

/** Organisation-name rules, tried in order (hosting wins over "networks" in "XYZ Cloud Networks"). */
export const NAME_RULES: readonly TNameRule[] = [
  {
    kind: 'hosting',
    pattern:
      /\b(hosting|host(ed|er|s)?|cloud|data ?cent(er|re)s?|datacent(er|re)s?|servers?|vps|colo(cation)?|dedicated|amazon|google llc|microsoft|digitalocean|ovh|hetzner|linode|vultr|choopa|alibaba|aliyun|tencent|akamai|fastly|oracle|leaseweb|contabo|scaleway|rackspace|godaddy|hostinger|ionos)\b/i,
    note: 'hosting, cloud, CDN and data-centre operators',
  },
  {
    kind: 'education',
    pattern:
      /\b(universit(y|e|at|ät|ad|ario|à)|college|school|education(al)?|academ(y|ic|ia)|institute of technology|research (and|&) education|polytechnic)\b/i,
    note: 'universities, schools and research-and-education networks',
  },
  {
    kind: 'mobile',
    // "Wireless" alone is left to the ISP rule: most such names are fixed-wireless access providers, not cellular carriers.
    pattern: /\b(mobile|mobility|cellular|lte|5g|gsm|mobil|mobilfunk|movil|móvil|celular)\b/i,
    note: 'mobile (cellular) carriers',
  },
  {
    kind: 'isp',
    pattern:
      /\b(telecom\w*|telekom\w*|telco|communications?|broadband|cable|wireless|internet service|isp|dsl|fib(er|re)|ftth|net(works?)?|chinanet|unicom|comcast|verizon|charter|spectrum)\b/i,
    note: 'fixed-line carriers and access providers',
  },
];

/** The kind and the rule that decided it (for transparency in the answer). */
export type TNetworkClassification = {
  kind: TNetworkKind;
  /** "asn:<n>", "name:<kind>" or "none". */
  rule: string;
};

/** Classifies a network by AS number, then by organisation name; "unknown" when nothing matches. */
export function classifyNetwork(asn: number | null, organization: string | null): TNetworkClassification {
  if (asn !== null && Object.hasOwn(KNOWN_ASNS, asn)) return { kind: KNOWN_ASNS[asn], rule: `asn:${asn}` };
  const name = organization?.trim() ?? '';
  if (name !== '') {
    for (const rule of NAME_RULES) {
      if (rule.pattern.test(name)) return { kind: rule.kind, rule: `name:${rule.kind}` };
    }
  }
  return { kind: 'unknown', rule: 'none' };
}
