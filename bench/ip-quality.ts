/**
 * IP quality data: load time and lookups per second (run: npx tsx bench/ip-quality.ts [count]).
 * Measures the offline data itself, without HTTP or the database: the ASN
 * binary search, the MMDB geolocation lookup and the network-kind rules.
 */
import { ipToNumber } from '@proxy/contract';
import { getIpData } from '@proxy/server/features/ip-quality/ip-data';
import { classifyNetwork } from '@proxy/server/features/ip-quality/network-kind-rules';

const count = Number(process.argv[2] ?? 200_000);

function randomIpv4(): string {
  // Random unicast-looking addresses: first octet 1-223, so most are public.
  const a = 1 + Math.floor(Math.random() * 223);
  return `${a}.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}`;
}

function randomIpv6(): string {
  const prefixes = [
    '2001:4860',
    '2a00:1450',
    '2400:cb00',
    '2606:4700',
    '2a03:2880',
    '240e:0',
    '2409:8a00',
    '2600:1f18',
  ];
  const words = Array.from({ length: 6 }, () => Math.floor(Math.random() * 0x10000).toString(16));
  return `${prefixes[Math.floor(Math.random() * prefixes.length)]}:${words.join(':')}`;
}

function measure(
  label: string,
  addresses: { text: string; family: 4 | 6; value: bigint }[],
  fn: (a: { text: string; family: 4 | 6; value: bigint }) => unknown,
): void {
  // Warm-up, then timed run.
  for (let i = 0; i < Math.min(10_000, addresses.length); i++) fn(addresses[i]);
  let hits = 0;
  const started = process.hrtime.bigint();
  for (const a of addresses) if (fn(a)) hits++;
  const ns = Number(process.hrtime.bigint() - started);
  const perSecond = Math.round((addresses.length / ns) * 1e9);
  console.log(
    `${label.padEnd(34)} ${perSecond.toLocaleString('en-US').padStart(12)} lookups/s  ${(ns / addresses.length / 1000).toFixed(2)} µs each  (${Math.round((hits / addresses.length) * 100)}% found)`,
  );
}

const loadStarted = performance.now();
const data = await getIpData();
console.log(
  `loaded in ${Math.round(performance.now() - loadStarted)} ms: ASN rows IPv4 ${data.asnRows[4]}, IPv6 ${data.asnRows[6]}`,
);
for (const s of data.sources) console.log(`  ${s.package}@${s.version} (data of ${s.date})`);
console.log(
  `heap ${Math.round(process.memoryUsage().heapUsed / 1e6)} MB, rss ${Math.round(process.memoryUsage().rss / 1e6)} MB`,
);

const toAddress = (text: string) => {
  const n = ipToNumber(text)!;
  return { text, family: n.family, value: n.value };
};
const v4 = Array.from({ length: count }, () => toAddress(randomIpv4()));
const v6 = Array.from({ length: Math.round(count / 4) }, () => toAddress(randomIpv6()));

measure('ASN, IPv4', v4, (a) => data.findAsn(a.family, a.value));
measure('ASN, IPv6', v6, (a) => data.findAsn(a.family, a.value));
measure('location, IPv4', v4, (a) => data.locate(a.family, a.text));
measure('location, IPv6', v6, (a) => data.locate(a.family, a.text));
measure('ASN + location + kind, IPv4', v4, (a) => {
  const asn = data.findAsn(a.family, a.value);
  data.locate(a.family, a.text);
  return classifyNetwork(asn?.asn ?? null, asn?.organization ?? null).kind !== 'unknown';
});
