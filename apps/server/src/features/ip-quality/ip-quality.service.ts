import { createRequire } from 'node:module';
import countries from 'i18n-iso-countries';
import {
  addressScope,
  ipBoundToHex,
  ipToNumber,
  parseIpAddress,
  type TIpNetworkKind,
  type TIpQuality,
} from '@proxy/contract';
import { AppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import { describeIpDataSources, getIpData, type TIpData } from './ip-data';
import { findBlacklistEntriesContaining, hasExitWithIp } from './ip-quality.repository';
import { NETWORK_KIND_RULES_DATE, classifyNetwork } from './network-kind-rules';

const require = createRequire(import.meta.url);
countries.registerLocale(require('i18n-iso-countries/langs/zh.json'));
countries.registerLocale(require('i18n-iso-countries/langs/en.json'));

type TText = { zh: string; en: string };
/** A reason behind a score, as the answer carries it. */
export type TRiskReason = TIpQuality['reasons'][number];

/**
 * The risk rules: points each finding adds (0 = a note that explains, not a
 * penalty). The score is their sum, capped at 100.
 */
export const RISK_RULES = {
  hosting_network: {
    points: 40,
    zh: '托管/数据中心网络：真实用户很少从这类网络上网，代理和自动化流量常见',
    en: 'Hosting / data-center network: few real users browse from one; proxies and automation are common',
  },
  in_your_blacklist: { points: 30, zh: '该地址在您的 IP 黑名单中', en: 'The address is in your IP blacklist' },
  no_asn_data: { points: 15, zh: '数据中没有任何网络宣告该地址', en: 'No network announces this address in the data' },
  unknown_network: {
    points: 10,
    zh: '无法判断网络类型（规则未覆盖该运营商）',
    en: 'Unknown network kind (the rules do not cover this operator)',
  },
  no_location_data: { points: 10, zh: '数据中没有该地址的位置信息', en: 'The data has no location for this address' },
  our_exit: { points: 0, zh: '这是我们的出口节点之一', en: 'This is one of our exit nodes' },
  proxy_lists_not_checked: {
    points: 0,
    zh: '未检查 TOR/公开代理列表：离线数据不包含这些列表',
    en: 'TOR and public proxy lists were not checked: they are not part of the offline data',
  },
} as const satisfies Record<string, { points: number } & TText>;

/** Code of a risk rule. */
export type TRiskCode = keyof typeof RISK_RULES;

/** What the score is computed from. */
export type TRiskFacts = {
  networkKind: TIpNetworkKind;
  hasAsn: boolean;
  hasLocation: boolean;
  isBlacklisted: boolean;
  isOurExit: boolean;
};

function reason(code: TRiskCode): TRiskReason {
  const rule = RISK_RULES[code];
  return { code, points: rule.points, text: { zh: rule.zh, en: rule.en } };
}

/** Score 0-100, its level, and every reason behind it (penalties first, then notes). */
export function assessIpRisk(facts: TRiskFacts): {
  score: number;
  level: 'low' | 'medium' | 'high';
  reasons: TRiskReason[];
} {
  const codes: TRiskCode[] = [];
  if (facts.networkKind === 'hosting') codes.push('hosting_network');
  if (facts.isBlacklisted) codes.push('in_your_blacklist');
  if (!facts.hasAsn) codes.push('no_asn_data');
  else if (facts.networkKind === 'unknown') codes.push('unknown_network');
  if (!facts.hasLocation) codes.push('no_location_data');
  if (facts.isOurExit) codes.push('our_exit');
  codes.push('proxy_lists_not_checked');
  const reasons = codes.map(reason);
  const score = Math.min(
    100,
    reasons.reduce((sum, r) => sum + r.points, 0),
  );
  return { score, level: score >= 60 ? 'high' : score >= 30 ? 'medium' : 'low', reasons };
}

/** Flag emoji of an ISO 3166-1 alpha-2 code ('' for anything else). */
export function flagOf(countryCode: string): string {
  if (!/^[A-Z]{2}$/.test(countryCode)) return '';
  return String.fromCodePoint(...[...countryCode].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}

function countryNameOf(code: string): TText {
  return { zh: countries.getName(code, 'zh') ?? code, en: countries.getName(code, 'en') ?? code };
}

const NON_PUBLIC_NOTE: TText = {
  zh: '这是非公网地址（私有、回环、保留等），不属于任何公网运营商，没有公网位置和风险评分',
  en: 'This is not a public address (private, loopback, reserved...): no public network owns it, so it has no public location and no risk score',
};

async function loadData(deps: TDeps): Promise<TIpData> {
  try {
    return await getIpData();
  } catch (error) {
    deps.log.error({ err: error }, 'IP data packages could not be loaded (npm ci / npm update @ip-location-db/...)');
    throw new AppError('IP_DATA_UNAVAILABLE');
  }
}

/**
 * The IP quality check of one address for one user: location, network owner
 * and kind, whether it is one of our exits or in the user's blacklist, and a
 * risk score with its reasons. Non-public addresses get their scope and a
 * note, no score. Nothing is dialled: every fact comes from offline data or
 * our own tables.
 */
export async function checkIpQuality(deps: TDeps, userId: number, input: string): Promise<TIpQuality> {
  const parsed = parseIpAddress(input);
  const number = ipToNumber(input);
  const scope = addressScope(input);
  if (!parsed || !number || !scope)
    throw new AppError('BAD_REQUEST', undefined, [{ path: 'ip', message: 'ipAddressInvalid' }]);
  const ip = parsed.toString();
  const [isOurExit, blacklistEntries] = await Promise.all([
    hasExitWithIp(deps.db, [...new Set([ip, input.trim()])]),
    findBlacklistEntriesContaining(deps.db, userId, number.family, ipBoundToHex(number.value)),
  ]);
  const base = {
    ip,
    family: number.family,
    scope,
    is_public: scope === 'public',
    is_our_exit: isOurExit,
    is_blacklisted: blacklistEntries.length > 0,
    blacklist_entries: blacklistEntries,
    data: {
      sources: describeIpDataSources(),
      rules_date: NETWORK_KIND_RULES_DATE,
      checked_at: deps.clock.now().toISOString(),
    },
  };
  if (scope !== 'public') {
    return {
      ...base,
      location: null,
      asn: null,
      network_kind: null,
      network_kind_rule: null,
      risk_score: null,
      risk_level: null,
      reasons: [],
      note: NON_PUBLIC_NOTE,
    };
  }

  const data = await loadData(deps);
  const location = data.locate(number.family, ip);
  const asn = data.findAsn(number.family, number.value);
  const network = classifyNetwork(asn?.asn ?? null, asn?.organization ?? null);
  const risk = assessIpRisk({
    networkKind: network.kind,
    hasAsn: asn !== null,
    hasLocation: location !== null,
    isBlacklisted: base.is_blacklisted,
    isOurExit,
  });
  return {
    ...base,
    location: location && {
      country_code: location.countryCode,
      country_name: countryNameOf(location.countryCode),
      flag: flagOf(location.countryCode),
      region: location.region,
      city: location.city,
      latitude: location.latitude,
      longitude: location.longitude,
      timezone: location.timezone,
    },
    asn: asn && { number: asn.asn, organization: asn.organization },
    network_kind: network.kind,
    network_kind_rule: network.rule,
    risk_score: risk.score,
    risk_level: risk.level,
    reasons: risk.reasons,
    note: null,
  };
}

/**
 * Country (ISO 3166-1 alpha-2, upper case) of a public address from the offline IP data; null for a non-public
 * address, one the data does not place, or when the data is not installed (the caller answers without it).
 */
export async function countryCodeOfAddress(address: string): Promise<string | null> {
  const number = ipToNumber(address);
  if (!number || addressScope(address) !== 'public') return null;
  try {
    const data = await getIpData();
    return data.locate(number.family, parseIpAddress(address)!.toString())?.countryCode || null;
  } catch {
    return null;
  }
}

/** The caller's address as the server sees it (IPv4-mapped IPv6 shown as IPv4). */
export function describeCallerIp(requestIp: string): string {
  return parseIpAddress(requestIp)?.toString() ?? requestIp;
}

/** Starts loading the IP data in the background (the check page asks for the caller's address first). */
export function warmIpData(deps: TDeps): void {
  getIpData().catch((error: unknown) =>
    deps.log.warn({ err: error }, 'IP data preload failed; the IP check will retry'),
  );
}
