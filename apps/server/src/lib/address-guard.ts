import dns from 'node:dns';
import net from 'node:net';
import { addressScope } from '@proxy/contract';

/*
 * The API's guard on addresses it dials for a URL someone gave it (webhook deliveries, software release files):
 * public addresses only, checked on the address actually dialled (the name resolved once, then that address used,
 * so no rebinding between the check and the connection).
 */

/** A refused destination: a loopback, private, link-local or otherwise non-public address. */
export class AddressRefusal extends Error {}

/** Why an address may not be dialled, or undefined when it may (allowPrivate: tests' loopback receivers). */
export function refusalOf(address: string, allowPrivate: boolean): string | undefined {
  if (allowPrivate) return undefined;
  const scope = addressScope(address);
  return scope === 'public' ? undefined : `address refused: ${address} is ${scope ?? 'not an address'}`;
}

/** A literal IP host that would be refused; names are checked when they are resolved, right before connecting. */
export function literalHostRefusal(hostname: string, allowPrivate: boolean): string | undefined {
  const host = hostname.replace(/^\[|\]$/g, '');
  return net.isIP(host) ? refusalOf(host, allowPrivate) : undefined;
}

/** A `lookup` for http(s).request that resolves the name once and fails with AddressRefusal on a refused address. */
export function guardedLookup(allowPrivate: boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: false }, (err, address, family) => {
      if (err) return callback(err, '', 0);
      const refusal = refusalOf(address as string, allowPrivate);
      if (refusal) return callback(new AddressRefusal(refusal) as unknown as NodeJS.ErrnoException, '', 0);
      callback(null, address as string, family as number);
    });
  };
}
