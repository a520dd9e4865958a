import { timingSafeEqual } from 'node:crypto';
import { findTokenStateRefusal, parseProxyUsername, type TTargetRuleMatcher } from '@proxy/contract';
import type { TExit } from './egress';
import type { TExitNodeRow } from './exit-nodes.repository';
import type { Purse, TLeases } from './leases';
import type { TRefusal } from './refusals';
import { rankExits } from './rotation';
import type { TStateCache } from './state-cache';
import type { TTokenRow } from './tokens.repository';

/** The protocol a client speaks: HTTP forward and CONNECT are "http". */
export type TProxyProtocol = 'http' | 'socks5';

/** A successful authentication: which token pays and where its traffic leaves. */
export type TGrant = {
  tokenId: number;
  /** Exits to try in order (static tokens have one; dynamic tokens may fall back to the next). */
  exits: TExit[];
  /** Simultaneous connections allowed for this token. */
  maxConnections: number;
  /**
   * The token's target rules, compiled (its own list, else its owner's
   * account list; absent when neither is set): checked before every dial.
   */
  targetRules?: TTargetRuleMatcher | null;
  /** A traffic token's purse, which the data path takes from (set by the gateway's state; absent: no traffic cap). */
  purse?: Purse | null;
  /** Reports an exit that failed, so dynamic tokens move on. */
  onExitFailed?(exit: TExit): void;
  /**
   * The credentials the grant was given for (the token's username and
   * password then): a live connection stops once the token no longer has
   * them (a reset password), see findRefusal.
   */
  admittedAs?: TAdmittedAs;
};

/** The token's own username and password that a connection was admitted with. */
export type TAdmittedAs = Pick<TTokenRow, 'username' | 'password'>;

/** What a client presents. */
export type TCredentials = { username: string; password: string; protocol: TProxyProtocol; sourceIp: string };

/**
 * Decides who may use the gateway. The real one reads the in-memory copy of
 * tokens and IP lists (never the database on the hot path).
 */
export type TAuthorizer = {
  /** Usually answers at once; may answer a promise when the credentials need one look in the database. */
  authorize(input: TCredentials): TGrant | TRefusal | Promise<TGrant | TRefusal>;
  /**
   * Why a live connection of this token must stop now (disable, delete,
   * expiry, exhaustion, IP lists, and with `admittedAs` a changed password or
   * username: bad-credentials), or null.
   */
  findRefusal(tokenId: number, sourceIp: string, admittedAs?: TAdmittedAs): TRefusal | null;
};

// Refusals a fresher row could lift (bought, reset, enabled, renewed, whitelisted a moment ago).
const LOOKUP_REFUSALS = new Set<TRefusal>([
  'bad-credentials',
  'token-disabled',
  'token-expired',
  'token-exhausted',
  'source-refused',
]);

function sameSecret(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

// One exit object per node row (rows are replaced, never changed, when the inventory moves).
const exitOfNode = new WeakMap<TExitNodeRow, TExit>();
function toExit(node: TExitNodeRow): TExit {
  let exit = exitOfNode.get(node);
  if (!exit) {
    exit =
      node.egress === 'direct'
        ? { id: node.id, kind: 'direct' }
        : {
            id: node.id,
            kind: node.egress,
            host: node.host,
            port: node.port,
            username: node.username ?? undefined,
            password: node.password ?? undefined,
          };
    exitOfNode.set(node, exit);
  }
  return exit;
}

/**
 * The authorizer over the state cache: credentials, the token's state and
 * allowance, the owner's IP lists, the protocol, and the exits to use (a
 * static token's own, or a dynamic token's by rendezvous hashing, see
 * rotation.ts). Credentials the copy refuses are looked up once before the
 * refusal, so what the API has answered is already true here.
 */
export function createAuthorizer(options: {
  cache: TStateCache;
  leases: TLeases;
  now: () => number;
  maxConnectionsPerToken: number;
  /** A failing upstream is skipped this long by dynamic tokens. */
  exitPenaltyMs: number;
}): TAuthorizer {
  const { cache, leases, now, maxConnectionsPerToken: maxConnections } = options;
  const failedExits = new Map<number, number>();

  function refusalOf(token: TTokenRow, sourceIp: string): TRefusal | null {
    if (token.ownerStatus === 'disabled') return 'token-disabled';
    const stateRefusal = findTokenStateRefusal(token, now(), leases.allowanceLeft(token));
    if (stateRefusal) return stateRefusal;
    const lists = cache.listsOf(token.userId);
    if (lists) {
      if (lists.blacklist.matches(sourceIp)) return 'source-refused';
      if (lists.whitelist.size > 0 && !lists.whitelist.matches(sourceIp)) return 'source-refused';
    }
    return null;
  }

  function areaNodes(token: TTokenRow, area: { country: string; state: string; city: string }): TExitNodeRow[] {
    const kind = token.category === 'idc' ? 'datacenter' : 'residential';
    const list: TExitNodeRow[] = [];
    for (const node of cache.nodes()) {
      if (node.status !== 'active' || node.kind !== kind) continue;
      // Upstream nodes held by a static token are not shared.
      if (node.holderTokenId !== null && node.holderTokenId !== token.id) continue;
      if (node.country !== area.country) continue;
      if (area.state && node.state !== area.state) continue;
      if (area.city && node.city !== area.city) continue;
      list.push(node);
    }
    return list.sort((a, b) => a.id - b.id);
  }

  function exitsFor(
    token: TTokenRow,
    opts: { country?: string; state?: string; city?: string; session?: string; sesstime?: number },
  ): TExit[] {
    if (token.product === 'static') {
      const node = token.exitNodeId !== null ? cache.node(token.exitNodeId) : undefined;
      return node && node.status === 'active' ? [toExit(node)] : [];
    }
    const area = opts.country
      ? { country: opts.country, state: opts.state ?? '', city: opts.city ?? '' }
      : { country: token.country, state: opts.state ?? token.state, city: opts.city ?? token.city };
    const t = now();
    const inArea = areaNodes(token, area);
    // Exits the inventory probe marked down are skipped, unless every exit of the area is down (then today's choice stands).
    const probed = inArea.filter((n) => n.health !== 'down');
    const all = probed.length ? probed : inArea;
    // An exit that failed here lately is skipped by this gateway only (the others may still reach it).
    const healthy = all.filter((n) => (failedExits.get(n.id) ?? 0) <= t);
    const pool = healthy.length ? healthy : all;
    if (pool.length === 0) return [];
    const byId = new Map(pool.map((n) => [n.id, n]));
    const ranked = rankExits({
      tokenId: token.id,
      session: opts.session,
      sesstimeMinutes: opts.sesstime,
      candidates: [...byId.keys()],
      now: t,
    });
    return ranked.map((id) => toExit(byId.get(id)!));
  }

  function decide({ username, password, protocol, sourceIp }: TCredentials): TGrant | TRefusal {
    const parsed = parseProxyUsername(username);
    if (!parsed) return 'bad-credentials';
    const token = cache.tokenByUsername(parsed.username);
    if (!token || !sameSecret(token.password, password)) return 'bad-credentials';
    const refusal = refusalOf(token, sourceIp);
    if (refusal) return refusal;
    if ((protocol === 'socks5') !== (token.network === 'SOCKS5')) return 'wrong-protocol';
    const exits = exitsFor(token, parsed.options);
    if (exits.length === 0) return 'no-exit';
    leases.prepare(token);
    return {
      tokenId: token.id,
      exits,
      maxConnections,
      targetRules: cache.targetRulesOf(token),
      onExitFailed:
        token.product === 'dynamic' ? (exit) => failedExits.set(exit.id, now() + options.exitPenaltyMs) : undefined,
      // The row as it was (no copy per request): only its username and password are compared later.
      admittedAs: token,
    };
  }

  return {
    authorize(input) {
      const first = decide(input);
      if (typeof first !== 'string' || !LOOKUP_REFUSALS.has(first)) return first;
      const parsed = parseProxyUsername(input.username);
      if (!parsed) return first;
      return cache.lookUp(parsed.username).then((looked) => (looked ? decide(input) : first));
    },
    findRefusal(tokenId, sourceIp, admittedAs) {
      const token = cache.tokenById(tokenId);
      if (!token) return 'token-disabled';
      // Credentials changed since the connection was admitted (a reset): what the old ones opened ends.
      if (admittedAs && (token.password !== admittedAs.password || token.username !== admittedAs.username))
        return 'bad-credentials';
      return refusalOf(token, sourceIp);
    },
  };
}
