import dns from 'node:dns';
import net from 'node:net';
import os from 'node:os';
import { addressScope, canonicalAddress, type TTargetRuleMatcher } from '@proxy/contract';
import { GatewayRefusal } from './refusals';

/** Which destinations a direct exit may dial (ARCHITECTURE.md, Proxies). */
export type TTargetPolicy = {
  /** Tests only: allow loopback and private targets. */
  allowPrivateTargets: boolean;
  /**
   * http:// URLs of the proxy test's echo (the API's GET /api/proxy/echo). On
   * an echo's host and port exactly one thing passes, on every protocol: a
   * GET of the echo's path. Anything else there is target-refused.
   */
  echoUrls: string[];
  /** Tests only: the host's own addresses (default: those of its network interfaces). */
  ownAddresses?: string[];
};

/** The one request a client may make on an echo's listener. */
export type TEchoTarget = { path: string };

// The host's own addresses, each in its canonical text (an IPv4 address however an IPv6 one embeds it).
function ownAddresses(listed?: string[]): Set<string> {
  const set = new Set<string>();
  const addresses =
    listed ?? Object.values(os.networkInterfaces()).flatMap((list) => (list ?? []).map((a) => a.address));
  for (const address of addresses) set.add(canonicalAddress(address) ?? address);
  return set;
}

function hostKey(host: string, port: number): string {
  return `${host.toLowerCase().replace(/^\[|\]$/g, '')}:${port}`;
}

/** Checks literal addresses and resolved names against the policy. */
export function createTargetGuard(policy: TTargetPolicy) {
  const own = ownAddresses(policy.ownAddresses);
  const echoes = new Map<string, TEchoTarget>();
  for (const text of policy.echoUrls) {
    const url = new URL(text);
    if (url.protocol !== 'http:')
      throw new Error(`echo URL must be http:// (the gateway checks the request inside a tunnel): ${text}`);
    echoes.set(hostKey(url.hostname, Number(url.port || 80)), { path: url.pathname });
  }

  function isAddressAllowed(address: string, port: number): boolean {
    void port;
    if (policy.allowPrivateTargets) return true;
    return addressScope(address) === 'public' && !own.has(canonicalAddress(address) ?? address);
  }

  /**
   * The `lookup` for net.connect: resolves, then keeps only the addresses
   * the policy allows (no DNS rebinding around the check; none left:
   * target-refused). When the token's target rules leave the name to its
   * addresses, every address must pass them, as before an upstream exit
   * (else target-blocked-by-rule). Answers one address or, when net asks for
   * all (family autoselection), the list.
   */
  function guardedLookup(port: number, rules: TTargetRuleMatcher | null = null): net.LookupFunction {
    return (hostname, options, callback) => {
      const isByAddress = rules !== null && rules.decideName(hostname) === 'by-address';
      dns.lookup(hostname, { ...options, all: true }, (err, found) => {
        if (err) return callback(err, '', 0);
        const kept = found.filter((a) => isAddressAllowed(a.address, port));
        const isBlocked = isByAddress && found.some((a) => rules!.decideAddress(a.address) === 'blocked');
        if (kept.length === 0 || isBlocked) {
          const refusal = new GatewayRefusal(kept.length === 0 ? 'target-refused' : 'target-blocked-by-rule');
          return callback(refusal as unknown as NodeJS.ErrnoException, '', 0);
        }
        if (options.all) return (callback as unknown as (e: null, list: dns.LookupAddress[]) => void)(null, kept);
        callback(null, kept[0].address, kept[0].family);
      });
    };
  }

  /**
   * The token's target rules on the destination as the client wrote it: a
   * literal address by its CIDR rules, a name by its domain rules (what the
   * name resolves to is checked by guardedLookup on a direct exit, by
   * checkRulesRemote on an upstream one). Throws target-blocked-by-rule.
   */
  function checkRules(host: string, rules: TTargetRuleMatcher | null): void {
    if (!rules) return;
    const bare = host.replace(/^\[|\]$/g, '');
    const verdict = net.isIP(bare) ? rules.decideAddress(bare) : rules.decideName(bare);
    if (verdict === 'blocked') throw new GatewayRefusal('target-blocked-by-rule');
  }

  /**
   * Before a name is handed to an upstream exit (which resolves it itself):
   * when the rules leave the name to its address, the gateway resolves it
   * here and checks every address. Deny rules refuse when any address lies
   * in a denied block (a name this host cannot resolve passes to the
   * upstream); allow rules pass only when every address lies in an allowed
   * block (a name that does not resolve here is refused).
   */
  async function checkRulesRemote(host: string, rules: TTargetRuleMatcher | null): Promise<void> {
    checkRules(host, rules);
    if (!rules || net.isIP(host.replace(/^\[|\]$/g, '')) || rules.decideName(host) !== 'by-address') return;
    let addresses: dns.LookupAddress[];
    try {
      addresses = await dns.promises.lookup(host, { all: true });
    } catch {
      if (rules.mode === 'allow') throw new GatewayRefusal('target-blocked-by-rule');
      return;
    }
    const blocked = addresses.filter((a) => rules.decideAddress(a.address) === 'blocked');
    if (rules.mode === 'deny' ? blocked.length > 0 : blocked.length > 0 || addresses.length === 0)
      throw new GatewayRefusal('target-blocked-by-rule');
  }

  return {
    /**
     * Throws target-refused for a literal address that is not allowed (names
     * are checked at lookup), then target-blocked-by-rule for a destination
     * the token's target rules refuse by its name or literal address.
     */
    check(host: string, port: number, rules: TTargetRuleMatcher | null = null): void {
      if (host.toLowerCase().replace(/\.$/, '') === 'localhost' && !policy.allowPrivateTargets)
        throw new GatewayRefusal('target-refused');
      if (net.isIP(host) && !isAddressAllowed(host, port)) throw new GatewayRefusal('target-refused');
      checkRules(host, rules);
    },
    /** The echo served at this host and port as the client wrote them, if any (its listener admits only the echo GET). */
    echoAt(host: string, port: number): TEchoTarget | undefined {
      return echoes.get(hostKey(host, port));
    },
    guardedLookup,
    checkRules,
    checkRulesRemote,
    isAddressAllowed,
  };
}

/** The guard type. */
export type TTargetGuard = ReturnType<typeof createTargetGuard>;
