import { z } from 'zod';
import { ipToNumber, isIpParseError, parseIpEntry } from './ip';
import { defineRoute, type TRouteDef } from './route-def';
import { zId } from './validators';

/**
 * Target rules ("Beyond the anchors", part 2): which destinations a proxy may
 * reach. A list is a mode and up to TARGET_RULES_MAX rules, one per line:
 *
 * - `example.com`: the name and every subdomain (`a.example.com`, `a.b.example.com`);
 * - `*.example.com`: the subdomains only, not `example.com` itself;
 * - `203.0.113.7`, `203.0.113.0/24`, `2001:db8::1`, `2001:db8::/32`: an IPv4
 *   or IPv6 address or CIDR block (a bare address is its /32 or /128).
 *
 * Mode `deny`: the proxy refuses a destination whose name matches a domain
 * rule or whose address (the literal one, or what the name resolves to)
 * lies in a CIDR rule; everything else passes. Mode `allow`: the proxy
 * reaches only destinations whose name matches a domain rule or whose
 * address lies in a CIDR rule. Domain rules look at the name the client
 * asked for; CIDR rules at the address dialled.
 *
 * Precedence: an account has at most one list (for all its proxies) and a
 * proxy at most one of its own. When a proxy has its own list, that list
 * alone applies to it, the account's is ignored (they are never merged); a
 * proxy without its own list follows the account's; with neither, only the
 * gateway's own target policy applies. An empty deny list on a proxy
 * therefore lifts the account's rules for that proxy. An allow list needs
 * at least one rule.
 */

/** What a list does with the destinations it names. */
export const TARGET_RULE_MODES = ['deny', 'allow'] as const;
/** A list's mode. */
export type TTargetRuleMode = (typeof TARGET_RULE_MODES)[number];
/** Most rules in one list. */
export const TARGET_RULES_MAX = 200;
/** Longest rule (a domain name is at most 253 characters; "*." adds two). */
export const TARGET_RULE_MAX_LENGTH = 255;
/** Most lines one submission may carry (blank lines included). */
export const TARGET_RULE_LINES_MAX = 1000;

/** A parsed rule, in canonical form. */
export type TTargetRule =
  | { kind: 'domain'; text: string; name: string; isSubdomainsOnly: boolean }
  | { kind: 'cidr'; text: string; family: 4 | 6; start: bigint; end: bigint };

/** Why a rule was refused. */
export type TTargetRuleReason = 'format' | 'prefix' | 'range' | 'duplicate' | 'too-many';

/** A refused line: its index in the submission, as written. */
export type TTargetRuleError = { index: number; input: string; reason: TTargetRuleReason };

/** The validation message key of each reason (messages.ts). */
export const TARGET_RULE_REASON_MESSAGES: Record<TTargetRuleReason, string> = {
  format: 'targetRuleFormat',
  prefix: 'targetRulePrefix',
  range: 'targetRuleRange',
  duplicate: 'targetRuleDuplicate',
  'too-many': 'targetRulesTooMany',
};

// A DNS label: letters, digits, hyphens inside, underscores (service names); 1-63 characters.
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

/** Lower-case ASCII form of a name (IDN to punycode), without a trailing dot; null when not a host name. */
export function normalizeDomainName(input: string): string | null {
  let text = input.trim().toLowerCase();
  if (text.endsWith('.')) text = text.slice(0, -1);
  if (text === '' || text.length > 253) return null;
  if (/[^\x21-\x7e]/.test(text)) {
    // Internationalised names: the URL parser applies IDNA (UTS #46) like a browser does.
    if (/[\s/?#@:[\]\\%]/.test(text)) return null;
    try {
      text = new URL(`http://${text}/`).hostname;
    } catch {
      return null;
    }
    if (text.length > 253) return null;
  }
  const labels = text.split('.');
  if (!labels.every((l) => LABEL.test(l))) return null;
  // The last label of a name is never all digits: "1.2.3.4.5" is a mistyped address, not a domain.
  if (/^\d+$/.test(labels[labels.length - 1])) return null;
  return text;
}

/** Parses one rule; answers it in canonical form or the reason it is refused. */
export function parseTargetRule(input: string): TTargetRule | { reason: TTargetRuleReason } {
  const text = input.trim();
  if (text === '' || text.length > TARGET_RULE_MAX_LENGTH) return { reason: 'format' };
  const isAddressLike = text.includes(':') || /^[\d./]+$/.test(text) || (text.includes('/') && !text.startsWith('*.'));
  if (isAddressLike || text.includes('-')) {
    const entry = parseIpEntry(text);
    if (!isIpParseError(entry)) {
      if (entry.kind === 'range') return { reason: 'range' };
      const prefix = entry.kind === 'single' ? (entry.family === 4 ? 32 : 128) : null;
      return {
        kind: 'cidr',
        text: prefix === null ? entry.text : `${entry.text}/${prefix}`,
        family: entry.family,
        start: entry.start,
        end: entry.end,
      };
    }
    if (entry.reason === 'prefix') return { reason: 'prefix' };
    if (entry.reason === 'order' || entry.reason === 'family') return { reason: 'range' };
    if (isAddressLike) return { reason: 'format' };
  }
  const isSubdomainsOnly = text.startsWith('*.');
  const name = normalizeDomainName(isSubdomainsOnly ? text.slice(2) : text);
  if (!name) return { reason: 'format' };
  return { kind: 'domain', text: isSubdomainsOnly ? `*.${name}` : name, name, isSubdomainsOnly };
}

/** True when a parse result is a refusal. */
export function isTargetRuleError(
  value: TTargetRule | { reason: TTargetRuleReason },
): value is { reason: TTargetRuleReason } {
  return 'reason' in value;
}

/**
 * Parses a submission, one rule per entry (a line of the console's textarea):
 * blank entries are skipped, every other is parsed. Errors name the entry's
 * index; a rule equal to an earlier one (after normalisation) is a
 * duplicate, and rules beyond TARGET_RULES_MAX are too many.
 */
export function parseTargetRules(lines: readonly string[]): { rules: TTargetRule[]; errors: TTargetRuleError[] } {
  const rules: TTargetRule[] = [];
  const errors: TTargetRuleError[] = [];
  const seen = new Set<string>();
  let count = 0;
  lines.forEach((input, index) => {
    if (input.trim() === '') return;
    count += 1;
    if (count > TARGET_RULES_MAX) return void errors.push({ index, input, reason: 'too-many' });
    const rule = parseTargetRule(input);
    if (isTargetRuleError(rule)) return void errors.push({ index, input, reason: rule.reason });
    if (seen.has(rule.text)) return void errors.push({ index, input, reason: 'duplicate' });
    seen.add(rule.text);
    rules.push(rule);
  });
  return { rules, errors };
}

/** Splits the console's textarea into entries (one per line). */
export function splitTargetRuleLines(text: string): string[] {
  return text.split(/\r?\n/);
}

/** A list as stored and as the API shows it. */
export const ZTargetRuleList = z.object({
  mode: z.enum(TARGET_RULE_MODES),
  /** Canonical rules: lower-case ASCII names ("*." for subdomains only), CIDR blocks with their prefix. */
  rules: z.array(z.string()),
  updated_at: z.string(),
});
/** A list as the API shows it. */
export type TTargetRuleList = z.infer<typeof ZTargetRuleList>;

/** Which list applies to a proxy. */
export const TARGET_RULE_SOURCES = ['own', 'account', 'none'] as const;

/** A proxy's rules: its own list, the account's, and which one applies. */
export const ZTokenTargetRules = z.object({
  token_id: z.number().int(),
  own: ZTargetRuleList.nullable(),
  account: ZTargetRuleList.nullable(),
  applies: z.enum(TARGET_RULE_SOURCES),
});
/** A proxy's rules. */
export type TTokenTargetRules = z.infer<typeof ZTokenTargetRules>;

const targetRulesShape = {
  mode: z.enum(TARGET_RULE_MODES, { error: 'targetRuleModeInvalid' }),
  rules: z
    .array(z.string({ error: 'invalidType' }).max(TARGET_RULE_MAX_LENGTH, { error: 'tooLong' }), {
      error: 'invalidType',
    })
    .max(TARGET_RULE_LINES_MAX, { error: 'targetRulesTooMany' }),
};

// Each bad entry is an issue at `rules.<index>` (the console shows it on its line).
function checkRules(body: { mode: TTargetRuleMode; rules: string[] }, ctx: z.RefinementCtx): void {
  const { rules, errors } = parseTargetRules(body.rules);
  for (const e of errors)
    ctx.addIssue({
      code: 'custom',
      path: ['rules', e.index],
      message: TARGET_RULE_REASON_MESSAGES[e.reason],
      input: e.input,
    });
  if (errors.length === 0 && body.mode === 'allow' && rules.length === 0) {
    ctx.addIssue({ code: 'custom', path: ['rules'], message: 'targetRulesAllowEmpty', input: body.rules });
  }
}

/**
 * A list to set: its mode and the rules, one per entry (blank entries
 * skipped); the whole list is replaced. The service stores the canonical
 * form (`parseTargetRules`).
 */
export const ZTargetRulesBody = z
  .object(targetRulesShape)
  .superRefine(checkRules)
  .meta({
    examples: [{ mode: 'deny', rules: ['example.com', '*.ads.example.net', '203.0.113.0/24', '2001:db8::/32'] }],
  });
/** A list to set. */
export type TTargetRulesBody = z.infer<typeof ZTargetRulesBody>;

/** Body of PUT /token/target-rules/:token_id (the path's id). */
export const ZTokenTargetRulesBody = z.object({ token_id: zId, ...targetRulesShape }).superRefine(checkRules);

/** The account's list and a proxy's own list: read, set (replaces the whole list), remove. */
export const TARGET_RULE_ROUTES = {
  userTargetRules: defineRoute({
    method: 'GET',
    path: '/user/target-rules',
    auth: 'user',
    summary: "The account's target rules (null when none are set)",
    tag: 'security',
    output: ZTargetRuleList.nullable(),
  }),
  userTargetRulesSet: defineRoute({
    method: 'PUT',
    path: '/user/target-rules',
    auth: 'user',
    summary: "Sets the account's target rules (mode deny or allow; replaces the list)",
    tag: 'security',
    input: ZTargetRulesBody,
    output: ZTargetRuleList,
  }),
  userTargetRulesRemove: defineRoute({
    method: 'DELETE',
    path: '/user/target-rules',
    auth: 'user',
    summary: "Removes the account's target rules",
    tag: 'security',
  }),
  tokenTargetRules: defineRoute({
    method: 'GET',
    path: '/token/target-rules/:token_id',
    auth: 'user',
    summary: "A proxy's target rules: its own, the account's, and which apply",
    tag: 'proxy',
    input: z.object({ token_id: zId }),
    output: ZTokenTargetRules,
  }),
  tokenTargetRulesSet: defineRoute({
    method: 'PUT',
    path: '/token/target-rules/:token_id',
    auth: 'user',
    summary: "Sets a proxy's own target rules (they replace the account's for this proxy)",
    tag: 'proxy',
    input: ZTokenTargetRulesBody,
    output: ZTokenTargetRules,
  }),
  tokenTargetRulesRemove: defineRoute({
    method: 'DELETE',
    path: '/token/target-rules/:token_id',
    auth: 'user',
    summary: "Removes a proxy's own target rules (the account's apply again)",
    tag: 'proxy',
    input: z.object({ token_id: zId }),
    output: ZTokenTargetRules,
  }),
} as const satisfies Record<string, TRouteDef>;

/** What a list says of a destination: refused, passed, or (a name) decided by the address it resolves to. */
export type TTargetRuleVerdict = 'blocked' | 'allowed' | 'by-address';

/**
 * A list compiled for the gateway: domain rules in two sets (a name and its
 * subdomains; subdomains only), CIDR rules as sorted, merged ranges per
 * family. Built once per change of the list, asked per connection.
 */
export function compileTargetRules(list: { mode: TTargetRuleMode; rules: readonly string[] }) {
  const withSubtree = new Set<string>();
  const subdomainsOnly = new Set<string>();
  const ranges: Record<4 | 6, { start: bigint; end: bigint }[]> = { 4: [], 6: [] };
  for (const text of list.rules) {
    const rule = parseTargetRule(text);
    if (isTargetRuleError(rule)) continue;
    if (rule.kind === 'domain') (rule.isSubdomainsOnly ? subdomainsOnly : withSubtree).add(rule.name);
    else ranges[rule.family].push({ start: rule.start, end: rule.end });
  }
  for (const family of [4, 6] as const) {
    const sorted = ranges[family].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
    const merged: { start: bigint; end: bigint }[] = [];
    for (const r of sorted) {
      const last = merged[merged.length - 1];
      if (last && r.start <= last.end + 1n) {
        if (r.end > last.end) last.end = r.end;
      } else merged.push({ ...r });
    }
    ranges[family] = merged;
  }
  const hasNames = withSubtree.size + subdomainsOnly.size > 0;
  const hasAddresses = ranges[4].length + ranges[6].length > 0;

  function nameMatches(host: string): boolean {
    if (!hasNames) return false;
    let name = host.toLowerCase();
    if (name.endsWith('.')) name = name.slice(0, -1);
    if (withSubtree.has(name)) return true;
    for (let dot = name.indexOf('.'); dot !== -1; dot = name.indexOf('.', dot + 1)) {
      const parent = name.slice(dot + 1);
      if (withSubtree.has(parent) || subdomainsOnly.has(parent)) return true;
    }
    return false;
  }

  function addressMatches(address: string): boolean {
    if (!hasAddresses) return false;
    const n = ipToNumber(address.replace(/^\[|\]$/g, ''));
    if (!n) return false;
    const list = ranges[n.family];
    let lo = 0;
    let hi = list.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (n.value < list[mid].start) hi = mid - 1;
      else if (n.value > list[mid].end) lo = mid + 1;
      else return true;
    }
    return false;
  }

  const isDeny = list.mode === 'deny';
  return {
    mode: list.mode,
    /** Rules the list holds (after parsing). */
    size: withSubtree.size + subdomainsOnly.size + ranges[4].length + ranges[6].length,
    /** A destination given as a name: decided by the name, or left to the address it resolves to. */
    decideName(host: string): TTargetRuleVerdict {
      if (nameMatches(host)) return isDeny ? 'blocked' : 'allowed';
      if (!hasAddresses) return isDeny ? 'allowed' : 'blocked';
      return 'by-address';
    },
    /** A literal address, or the address a name resolved to (when decideName left it to the address). */
    decideAddress(address: string): 'blocked' | 'allowed' {
      return addressMatches(address) === isDeny ? 'blocked' : 'allowed';
    },
  };
}

/** A compiled list. */
export type TTargetRuleMatcher = ReturnType<typeof compileTargetRules>;
