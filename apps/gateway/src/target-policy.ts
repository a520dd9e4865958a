import dns from 'node:dns';
import net from 'node:net';
import os from 'node:os';
import { addressScope } from '@proxy/contract';
import { GatewayRefusal } from './refusals';

/** Which destinations a direct exit may dial (ARCHITECTURE.md, Proxies). */
export type TTargetPolicy = {
  /** Tests only: allow loopback and private targets. */
  allowPrivateTargets: boolean;
  /** host:port pairs always allowed (the server's echo endpoint used by the proxy test). */
  allowedEndpoints: string[];
};

function ownAddresses(): Set<string> {
  const set = new Set<string>();
  for (const list of Object.values(os.networkInterfaces())) for (const a of list ?? []) set.add(a.address);
  return set;
}

/** Checks literal addresses and resolved names against the policy. */
export function createTargetGuard(policy: TTargetPolicy) {
  const own = ownAddresses();
  const allowed = new Set(policy.allowedEndpoints.map((e) => e.toLowerCase()));

  function isAddressAllowed(address: string, port: number): boolean {
    if (allowed.has(`${address}:${port}`)) return true;
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
      if (allowed.has(`${host.toLowerCase()}:${port}`)) return;
      if (host.toLowerCase() === 'localhost' && !policy.allowPrivateTargets) throw new GatewayRefusal('target-refused');
      if (net.isIP(host) && !isAddressAllowed(host, port)) throw new GatewayRefusal('target-refused');
    },
    guardedLookup,
    isAddressAllowed,
  };
}

/** The guard type. */
export type TTargetGuard = ReturnType<typeof createTargetGuard>;
