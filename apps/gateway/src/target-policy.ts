import dns from 'node:dns';
import net from 'node:net';
import os from 'node:os';
import { addressScope } from '@proxy/contract';
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
};

/** The one request a client may make on an echo's listener. */
export type TEchoTarget = { path: string };

function ownAddresses(): Set<string> {
  const set = new Set<string>();
  for (const list of Object.values(os.networkInterfaces())) for (const a of list ?? []) set.add(a.address);
  return set;
}

function hostKey(host: string, port: number): string {
  return `${host.toLowerCase().replace(/^\[|\]$/g, '')}:${port}`;
}

/** Checks literal addresses and resolved names against the policy. */
export function createTargetGuard(policy: TTargetPolicy) {
  const own = ownAddresses();
  const echoes = new Map<string, TEchoTarget>();
  for (const text of policy.echoUrls) {
    const url = new URL(text);
    if (url.protocol !== 'http:') throw new Error(`echo URL must be http:// (the gateway checks the request inside a tunnel): ${text}`);
    echoes.set(hostKey(url.hostname, Number(url.port || 80)), { path: url.pathname });
  }

  function isAddressAllowed(address: string, port: number): boolean {
    void port;
    if (policy.allowPrivateTargets) return true;
    return addressScope(address) === 'public' && !own.has(address);
  }

  /** The `lookup` for net.connect: resolves, then refuses disallowed addresses (no DNS rebinding around the check). */
  function guardedLookup(port: number): net.LookupFunction {
    return (hostname, options, callback) => {
      dns.lookup(hostname, { ...options, all: false }, (err, address, family) => {
        if (err) return callback(err, '', 0);
        if (!isAddressAllowed(address as string, port)) {
          return callback(new GatewayRefusal('target-refused') as unknown as NodeJS.ErrnoException, '', 0);
        }
        callback(null, address as string, family as number);
      });
    };
  }

  return {
    /** Throws target-refused for a literal address that is not allowed; names are checked at lookup. */
    check(host: string, port: number): void {
      if (host.toLowerCase().replace(/\.$/, '') === 'localhost' && !policy.allowPrivateTargets) throw new GatewayRefusal('target-refused');
      if (net.isIP(host) && !isAddressAllowed(host, port)) throw new GatewayRefusal('target-refused');
    },
    /** The echo served at this host and port as the client wrote them, if any (its listener admits only the echo GET). */
    echoAt(host: string, port: number): TEchoTarget | undefined {
      return echoes.get(hostKey(host, port));
    },
    guardedLookup,
    isAddressAllowed,
  };
}

/** The guard type. */
export type TTargetGuard = ReturnType<typeof createTargetGuard>;
