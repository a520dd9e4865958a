import net from 'node:net';
import { getDomain } from 'tldts';

/** The domain row that sums a token's domains past those kept, and bytes of no known target ("other"). */
export const DOMAIN_OTHER = '';

/**
 * The registrable domain of a target host for the usage by domain (docs/usage.md): `www.example.co.uk` ->
 * `example.co.uk` by the Public Suffix List (tldts, private suffixes included: `user.github.io` stays itself); an IP
 * address is its own domain; a name with no registrable part (`localhost`, a bare suffix) is kept lower-cased.
 */
export function registrableDomain(host: string): string {
  if (!host) return DOMAIN_OTHER;
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (net.isIP(bare)) return bare.toLowerCase();
  const name = bare.toLowerCase().replace(/\.$/, '');
  return getDomain(name, { allowPrivateDomains: true }) ?? name;
}
