import ipaddr from 'ipaddr.js';

/** Forms of an IP list entry: one address, a CIDR block or a range. */
export const IP_ENTRY_KINDS = ['single', 'cidr', 'range'] as const;
/** An entry's form. */
export type TIpEntryKind = (typeof IP_ENTRY_KINDS)[number];

/**
 * IP list entries (ARCHITECTURE.md, Proxies; spec section 5): a single IPv4 or
 * IPv6 address, a CIDR block, or a range "a-b". One implementation for the
 * console form, the server and the gateway.
 */

/** A parsed entry: an inclusive range of addresses of one family. */
export type TIpRange = {
  family: 4 | 6;
  start: bigint;
  end: bigint;
  /** How the user wrote it. */
  kind: TIpEntryKind;
  /** Canonical text: "1.2.3.4", "10.0.0.0/24", "10.0.0.1-10.0.0.9", IPv6 in RFC 5952 form. */
  text: string;
};

/** Why an entry was refused. */
export type TIpParseError = { input: string; reason: 'empty' | 'format' | 'prefix' | 'order' | 'family' };

/** Separator of several entries in one field. */
export const IP_ENTRY_SEPARATOR = ';';

type TAddr = ipaddr.IPv4 | ipaddr.IPv6;

function toBigInt(addr: TAddr): bigint {
  let n = 0n;
  for (const byte of addr.toByteArray()) n = (n << 8n) | BigInt(byte);
  return n;
}

function fromBigInt(n: bigint, family: 4 | 6): string {
  const size = family === 4 ? 4 : 16;
  const bytes: number[] = [];
  for (let i = 0; i < size; i++) {
    bytes.unshift(Number(n & 0xffn));
    n >>= 8n;
  }
  return ipaddr.fromByteArray(bytes).toString();
}

/** Parses one address strictly: dotted decimal without leading zeros, IPv6 without zone; IPv4-mapped IPv6 becomes IPv4. */
export function parseIpAddress(input: string): TAddr | null {
  const text = input.trim();
  if (text === '' || text.includes('%')) return null;
  let addr: TAddr;
  if (text.includes(':')) {
    if (!ipaddr.IPv6.isValid(text)) return null;
    addr = ipaddr.IPv6.parse(text);
    if (addr.isIPv4MappedAddress()) {
      // The dotted part of "::ffff:1.2.3.4" must be strict as well.
      const dotted = text.slice(text.lastIndexOf(':') + 1);
      if (dotted.includes('.') && !isStrictIpv4(dotted)) return null;
      return addr.toIPv4Address();
    }
    return addr;
  }
  return isStrictIpv4(text) ? ipaddr.IPv4.parse(text) : null;
}

function isStrictIpv4(text: string): boolean {
  // Four decimal parts 0-255 without leading zeros ("010" could mean octal).
  return /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/.test(text);
}

function familyOf(addr: TAddr): 4 | 6 {
  return addr.kind() === 'ipv4' ? 4 : 6;
}

/** Parses one entry; returns the range or the reason it is invalid. */
export function parseIpEntry(input: string): TIpRange | TIpParseError {
  const text = input.trim();
  if (text === '') return { input, reason: 'empty' };
  if (text.includes('/')) {
    const [addrText, prefixText, ...rest] = text.split('/');
    if (rest.length > 0 || !/^\d{1,3}$/.test(prefixText.trim())) return { input, reason: 'format' };
    const addr = parseIpAddress(addrText);
    if (!addr) return { input, reason: 'format' };
    const family = familyOf(addr);
    // An IPv4-mapped address written with an IPv6 prefix ("::ffff:1.2.3.4/120") keeps its IPv4 meaning.
    let prefix = Number(prefixText);
    if (family === 4 && addrText.includes(':')) prefix -= 96;
    const bits = family === 4 ? 32 : 128;
    if (prefix < 0 || prefix > bits) return { input, reason: 'prefix' };
    const hostBits = BigInt(bits - prefix);
    const start = (toBigInt(addr) >> hostBits) << hostBits;
    const end = start + (1n << hostBits) - 1n;
    return { family, start, end, kind: 'cidr', text: `${fromBigInt(start, family)}/${prefix}` };
  }
  if (text.includes('-')) {
    const parts = text.split('-');
    if (parts.length !== 2) return { input, reason: 'format' };
    const a = parseIpAddress(parts[0]);
    const b = parseIpAddress(parts[1]);
    if (!a || !b) return { input, reason: 'format' };
    if (familyOf(a) !== familyOf(b)) return { input, reason: 'family' };
    const family = familyOf(a);
    const start = toBigInt(a);
    const end = toBigInt(b);
    if (start > end) return { input, reason: 'order' };
    if (start === end) return { family, start, end, kind: 'single', text: fromBigInt(start, family) };
    return { family, start, end, kind: 'range', text: `${fromBigInt(start, family)}-${fromBigInt(end, family)}` };
  }
  const addr = parseIpAddress(text);
  if (!addr) return { input, reason: 'format' };
  const family = familyOf(addr);
  const n = toBigInt(addr);
  return { family, start: n, end: n, kind: 'single', text: fromBigInt(n, family) };
}

/** True when a parse result is an error. */
export function isIpParseError(value: TIpRange | TIpParseError): value is TIpParseError {
  return 'reason' in value;
}

/**
 * Parses a field of entries separated by ";" (blank parts between separators
 * are ignored). All or nothing: any invalid entry makes the whole field invalid.
 */
export function parseIpEntries(field: string): { ranges: TIpRange[]; errors: TIpParseError[] } {
  const parts = field
    .split(IP_ENTRY_SEPARATOR)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (parts.length === 0) return { ranges: [], errors: [{ input: field, reason: 'empty' }] };
  const ranges: TIpRange[] = [];
  const errors: TIpParseError[] = [];
  for (const part of parts) {
    const r = parseIpEntry(part);
    if (isIpParseError(r)) errors.push(r);
    else ranges.push(r);
  }
  return { ranges, errors };
}

/** Key of a normalised range: entries with the same key are duplicates. */
export function ipRangeKey(range: Pick<TIpRange, 'family' | 'start' | 'end'>): string {
  return `${range.family}:${range.start.toString(16)}-${range.end.toString(16)}`;
}

/** The two IP lists of an account (ARCHITECTURE.md, Proxies: list semantics). */
export const IP_LISTS = ['whitelist', 'blacklist'] as const;
/** An IP list. */
export type TIpList = (typeof IP_LISTS)[number];
/** Most entries one user may keep in one list. */
export const IP_LIST_MAX_ENTRIES = 500;
/** Longest remark of an entry. */
export const IP_LIST_REMARK_MAX = 100;
/** Translated list names, used in "IP already exists in {listName}". */
export const IP_LIST_NAMES: Record<TIpList, { zh: string; en: string }> = {
  whitelist: { zh: '白名单', en: 'whitelist' },
  blacklist: { zh: '黑名单', en: 'blacklist' },
};

/**
 * Stored form of a range bound (the `start_hex`/`end_hex` columns): 32
 * lower-case hex digits, so text order is numeric order for both families.
 */
export function ipBoundToHex(value: bigint): string {
  return value.toString(16).padStart(32, '0');
}

/** Reads a stored range bound back (inverse of ipBoundToHex). */
export function ipBoundFromHex(hex: string): bigint {
  return BigInt(`0x${hex}`);
}

/**
 * Duplicates within one submission: every range whose normalised range came
 * earlier in the list (so "1.2.3.4; ::ffff:1.2.3.4" reports the second).
 */
export function findDuplicateRanges(ranges: TIpRange[]): TIpRange[] {
  const seen = new Set<string>();
  const duplicates: TIpRange[] = [];
  for (const range of ranges) {
    const key = ipRangeKey(range);
    if (seen.has(key)) duplicates.push(range);
    else seen.add(key);
  }
  return duplicates;
}

/** A parsed address as family and number, for matching; null when not an address. */
export function ipToNumber(input: string): { family: 4 | 6; value: bigint } | null {
  const addr = parseIpAddress(input);
  return addr ? { family: familyOf(addr), value: toBigInt(addr) } : null;
}

/** True when the address lies in the range. */
export function isIpInRange(
  address: { family: 4 | 6; value: bigint },
  range: Pick<TIpRange, 'family' | 'start' | 'end'>,
): boolean {
  return address.family === range.family && address.value >= range.start && address.value <= range.end;
}

/** Matcher over many ranges (the gateway's per-account lists). */
export function createIpMatcher(ranges: Pick<TIpRange, 'family' | 'start' | 'end'>[]) {
  const list = [...ranges];
  return {
    size: list.length,
    /** True when the address (text, e.g. a socket's remoteAddress) is in any range. */
    matches(address: string): boolean {
      const n = ipToNumber(address);
      return n !== null && list.some((r) => isIpInRange(n, r));
    },
  };
}

/**
 * The IPv4 address an IPv4-compatible IPv6 address (::/96, deprecated by RFC
 * 4291 but still routed by some hosts, e.g. "::7f00:1" or "::127.0.0.1")
 * embeds; null for any other address, and for "::" and "::1", which are
 * IPv6's own unspecified and loopback addresses. (IPv4-mapped addresses,
 * ::ffff:0:0/96, are turned into IPv4 by parseIpAddress already.)
 */
function embeddedIpv4(addr: TAddr): ipaddr.IPv4 | null {
  if (addr.kind() !== 'ipv6') return null;
  const parts = (addr as ipaddr.IPv6).parts;
  if (parts.slice(0, 6).some((part) => part !== 0)) return null;
  if (parts[6] === 0 && parts[7] <= 1) return null;
  return new ipaddr.IPv4([parts[6] >> 8, parts[6] & 0xff, parts[7] >> 8, parts[7] & 0xff]);
}

/**
 * One text per address, to compare addresses however they were written: an
 * address that embeds an IPv4 one (IPv4-mapped or IPv4-compatible) as that
 * IPv4 address, IPv6 in RFC 5952 form; null when not an address.
 */
export function canonicalAddress(input: string): string | null {
  const parsed = parseIpAddress(input);
  return parsed ? (embeddedIpv4(parsed) ?? parsed).toString() : null;
}

/** What kind of address space an address belongs to. */
export type TAddressScope = 'public' | 'loopback' | 'private' | 'link-local' | 'unspecified' | 'multicast' | 'reserved';

/**
 * Scope of an address (null when not an address). Only "public" addresses may
 * be dialled on a user's behalf (gateway targets, proxy test, IP check,
 * webhooks). An IPv6 address that embeds an IPv4 one (IPv4-mapped
 * ::ffff:0:0/96, IPv4-compatible ::/96) has the scope of the IPv4 address.
 */
export function addressScope(input: string): TAddressScope | null {
  const parsed = parseIpAddress(input);
  if (!parsed) return null;
  const addr = embeddedIpv4(parsed) ?? parsed;
  const range = addr.range();
  switch (range) {
    case 'unicast':
      return 'public';
    case 'loopback':
      return 'loopback';
    case 'private':
    case 'uniqueLocal':
    case 'carrierGradeNat':
      return 'private';
    case 'linkLocal':
      return 'link-local';
    case 'unspecified':
      return 'unspecified';
    case 'multicast':
    case 'broadcast':
      return 'multicast';
    default:
      // reserved, benchmarking, documentation (TEST-NET, 2001:db8::/32), 6to4, teredo, rfc6145, rfc6052...
      return range === 'ipv4Mapped' ? addressScope(addr.toString()) : 'reserved';
  }
}
