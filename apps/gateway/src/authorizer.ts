import { timingSafeEqual } from 'node:crypto';
import {
  findTokenStateRefusal,
  parseProxyUsername,
  poolServesArea,
  type TPoolArea,
  type TTargetRuleMatcher,
} from '@proxy/contract';
import type { TExit, TNodeExit } from './egress';
import type { TExitNodeRow } from './exit-nodes.repository';
import type { Purse, TLeases } from './leases';
import type { TRefusal } from './refusals';
import {
  DEFAULT_SESSTIME_MINUTES,
  EXIT_PRIORITY,
  EXIT_WEIGHT,
  rankCandidates,
  rotationWindow,
  type TRankedCandidate,
} from './rotation';
import type { TStateCache } from './state-cache';
import type { TStickySession } from './sticky-sessions';
import type { TTokenRow } from './tokens.repository';
import type { TGatewayPool, TPoolSession } from './upstream-pools';

/** The protocol a client speaks: HTTP forward and CONNECT are "http". */
export type TProxyProtocol = 'http' | 'socks5';

/** A successful authentication: which token pays and where its traffic leaves. */
export type TGrant = {
  tokenId: number;
  /**
   * Exits and pools to try in order (static tokens have one exit; dynamic tokens may fall back to the next): the
   * first is the choice every gateway makes for the token, session and window.
   */
  exits: TExit[];
  /** The country of the area the connection is for ('' when none): attribution's area. */
  country?: string;
  /**
   * A sticky session's choice (the username asked for a session): the candidate every gateway chooses for it, before
   * this process moved candidates that failed here last. Leaving by another is recorded (the usage log's exit change).
   */
  stickyChoice?: TExit;
  /** The token's owner (the session hold report, exits not shared). */
  userId?: number;
  /** A sticky session (the username asked for one): its id, minutes and window, the same on every gateway. */
  sticky?: TStickySession;
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
const exitOfNode = new WeakMap<TExitNodeRow, TNodeExit>();
function toExit(node: TExitNodeRow): TNodeExit {
  let exit = exitOfNode.get(node);
  if (!exit) {
    exit =
      node.egress === 'direct'
        ? { id: node.id, kind: 'direct', exitIp: node.exitIp ?? undefined }
        : {
            id: node.id,
            kind: node.egress,
            host: node.host,
            port: node.port,
            username: node.username ?? undefined,
            password: node.password ?? undefined,
            exitIp: node.exitIp ?? undefined,
          };
    exitOfNode.set(node, exit);
  }
  return exit;
}

/** An exit of the inventory as a rotation candidate (one object per node row). */
type TNodeCandidate = TRankedCandidate & { node: TExitNodeRow };
const candidateOfNode = new WeakMap<TExitNodeRow, TNodeCandidate>();
function toCandidate(node: TExitNodeRow): TNodeCandidate {
  let candidate = candidateOfNode.get(node);
  if (!candidate) {
    candidate = { key: `e${node.id}`, priority: EXIT_PRIORITY, weight: EXIT_WEIGHT, node };
    candidateOfNode.set(node, candidate);
  }
  return candidate;
}

/**
 * Whether a token may leave through upstream pools: a dynamic proxy with a traffic allowance, billed by traffic or
 * by IP under the operator's fair-use traffic (docs/pools.md, "Which proxies"); the allowance bounds a pool's cost.
 */
function usesPools(token: TTokenRow): boolean {
  return token.product === 'dynamic' && token.trafficLimitBytes !== null;
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

  type TUserOptions = { country?: string; state?: string; city?: string; session?: string; sesstime?: number };

  function areaOf(token: TTokenRow, opts: TUserOptions): TPoolArea {
    return opts.country
      ? { country: opts.country, state: opts.state ?? '', city: opts.city ?? '' }
      : { country: token.country, state: opts.state ?? token.state, city: opts.city ?? token.city };
  }

  // The session pools are asked for: the customer's, or the token's rotation window (a new one each window).
  function poolSessionOf(token: TTokenRow, opts: TUserOptions, t: number): TPoolSession {
    if (opts.session)
      return { seed: `${token.id}:s:${opts.session}`, minutes: opts.sesstime ?? DEFAULT_SESSTIME_MINUTES };
    const window = rotationWindow({ tokenId: token.id, now: t });
    return { seed: `${token.id}:w:${window.index}`, minutes: Math.ceil(window.lengthMs / 60_000) };
  }

  function exitsFor(token: TTokenRow, opts: TUserOptions): { exits: TExit[]; choice: TExit } | TRefusal {
    if (token.product === 'static') {
      const node = token.exitNodeId !== null ? cache.node(token.exitNodeId) : undefined;
      if (!node || node.status !== 'active') return 'no-exit';
      const exit = toExit(node);
      return { exits: [exit], choice: exit };
    }
    const area = areaOf(token, opts);
    const t = now();
    const inArea = areaNodes(token, area);
    // Exits the inventory probe marked down are skipped, unless every exit of the area is down (then today's choice stands).
    const probed = inArea.filter((n) => n.health !== 'down');
    const nodes = probed.length ? probed : inArea;
    const kind = token.category === 'idc' ? 'datacenter' : 'residential';
    const kindPools = usesPools(token) ? cache.poolsOf(kind) : [];
    const servingPools = kindPools.filter((p) => poolServesArea(p.coverage, area));
    if (nodes.length === 0 && servingPools.length === 0) return kindPools.length ? 'area-not-served' : 'no-exit';
    const candidates: (TNodeCandidate | TGatewayPool)[] = nodes.map(toCandidate);
    for (const pool of servingPools) candidates.push(pool);
    const ranked = rankCandidates({
      tokenId: token.id,
      session: opts.session,
      sesstimeMinutes: opts.sesstime,
      candidates,
      now: t,
    });
    const session = servingPools.length ? poolSessionOf(token, opts, t) : null;
    const exits: TExit[] = [];
    // An exit that failed here lately goes last, on this gateway only (the others may still reach it).
    let penalized: TExit[] | null = null;
    let choice: TExit | null = null;
    for (const c of ranked) {
      let exit: TExit;
      if ('node' in c) {
        exit = toExit(c.node);
        if ((failedExits.get(c.node.id) ?? 0) > t) (penalized ??= []).push(exit);
        else exits.push(exit);
      } else {
        exit = { id: c.id, kind: 'pool', pool: c, area, session: session! };
        exits.push(exit);
      }
      choice ??= exit;
    }
    if (penalized) for (const exit of penalized) exits.push(exit);
    return { exits, choice: choice! };
  }

  function decide({ username, password, protocol, sourceIp }: TCredentials): TGrant | TRefusal {
    const parsed = parseProxyUsername(username);
    if (!parsed) return 'bad-credentials';
    const token = cache.tokenByUsername(parsed.username);
    if (!token || !sameSecret(token.password, password)) return 'bad-credentials';
    const refusal = refusalOf(token, sourceIp);
    if (refusal) return refusal;
    if ((protocol === 'socks5') !== (token.network === 'SOCKS5')) return 'wrong-protocol';
    const chosen = exitsFor(token, parsed.options);
    if (typeof chosen === 'string') return chosen;
    leases.prepare(token);
    const { session, sesstime } = parsed.options;
    let sticky: TStickySession | undefined;
    if (session !== undefined && token.product === 'dynamic') {
      const window = rotationWindow({ tokenId: token.id, session, sesstimeMinutes: sesstime, now: now() });
      sticky = {
        session,
        minutes: sesstime ?? DEFAULT_SESSTIME_MINUTES,
        windowStart: window.endsAt - window.lengthMs,
        windowEnd: window.endsAt,
      };
    }
    return {
      tokenId: token.id,
      userId: token.userId,
      sticky,
      exits: chosen.exits,
      country: parsed.options.country ?? token.country,
      stickyChoice: parsed.options.session !== undefined ? chosen.choice : undefined,
      maxConnections,
      targetRules: cache.targetRulesOf(token),
      // Pools have their own breaker (upstream-pools.ts).
      onExitFailed:
        token.product === 'dynamic'
          ? (exit) => void (exit.kind !== 'pool' && failedExits.set(exit.id, now() + options.exitPenaltyMs))
          : undefined,
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
