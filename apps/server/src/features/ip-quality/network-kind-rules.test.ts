import { beforeAll, describe, expect, it } from 'vitest';
import { ipToNumber } from '@proxy/contract';
import { getIpData, type TIpData } from './ip-data';
import { KNOWN_ASNS, NETWORK_KIND_RULES_DATE, classifyNetwork } from './network-kind-rules';

// Real addresses against the installed data packages (no fixtures). After
// `npm update @ip-location-db/...` an address may change hands; then pick
// another from the same block owner, do not loosen the expectations.

describe('network kind rules (names and numbers)', () => {
  it('is dated', () => {
    expect(NETWORK_KIND_RULES_DATE).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('decides well-known networks by AS number, whatever the name says', () => {
    expect(classifyNetwork(15169, 'anything')).toEqual({ kind: 'hosting', rule: 'asn:15169' });
    expect(classifyNetwork(7922, '')).toEqual({ kind: 'isp', rule: 'asn:7922' });
    expect(classifyNetwork(9808, null)).toEqual({ kind: 'mobile', rule: 'asn:9808' });
  });

  it('classifies networks it does not list by their organisation names', () => {
    // Private-use AS numbers: certainly not in KNOWN_ASNS.
    expect(classifyNetwork(64512, 'Example Hosting Ltd').kind).toBe('hosting');
    expect(classifyNetwork(64513, 'Nimbus Cloud Networks').kind).toBe('hosting'); // hosting wins over "networks"
    expect(classifyNetwork(64514, 'Data Centre Services GmbH').kind).toBe('hosting');
    expect(classifyNetwork(64515, 'Springfield Community College').kind).toBe('education');
    expect(classifyNetwork(64516, 'Universität Beispiel').kind).toBe('education');
    expect(classifyNetwork(64517, 'Acme Mobile Communications').kind).toBe('mobile'); // mobile wins over "communications"
    expect(classifyNetwork(64518, 'Rural Broadband Co-op').kind).toBe('isp');
    expect(classifyNetwork(64519, 'Valley Wireless LLC').kind).toBe('isp'); // fixed wireless, not cellular
    expect(classifyNetwork(64520, 'Turk Telekomunikasyon Anonim Sirketi').kind).toBe('isp');
  });

  it('answers "unknown" when nothing matches, never a guess', () => {
    expect(classifyNetwork(64521, 'Acme Widgets Inc.')).toEqual({ kind: 'unknown', rule: 'none' });
    expect(classifyNetwork(null, null)).toEqual({ kind: 'unknown', rule: 'none' });
    expect(classifyNetwork(64522, '   ')).toEqual({ kind: 'unknown', rule: 'none' });
    // Words that merely contain a keyword do not count.
    expect(classifyNetwork(64523, 'Observer Media Group').kind).toBe('unknown');
    expect(classifyNetwork(64524, 'Cablevision Fans Club').kind).toBe('unknown');
  });
});

describe('classification of real addresses (offline data)', () => {
  let data: TIpData;
  beforeAll(async () => {
    data = await getIpData();
  });

  function classify(ip: string) {
    const n = ipToNumber(ip);
    if (!n) throw new Error(`not an address: ${ip}`);
    const asn = data.findAsn(n.family, n.value);
    return {
      asn: asn?.asn ?? null,
      organization: asn?.organization ?? null,
      ...classifyNetwork(asn?.asn ?? null, asn?.organization ?? null),
    };
  }

  it('8.8.8.8 is Google, a hosting network', () => {
    expect(classify('8.8.8.8')).toMatchObject({ asn: 15169, organization: 'Google LLC', kind: 'hosting' });
    expect(classify('2001:4860:4860::8888')).toMatchObject({ asn: 15169, kind: 'hosting' });
  });

  it('1.1.1.1 is Cloudflare, a hosting network', () => {
    expect(classify('1.1.1.1')).toMatchObject({ asn: 13335, kind: 'hosting' });
    expect(classify('1.1.1.1').organization).toMatch(/cloudflare/i);
  });

  it('residential ISP blocks are ISPs (Comcast, China Telecom)', () => {
    expect(classify('73.162.1.1')).toMatchObject({ asn: 7922, kind: 'isp' });
    expect(classify('73.162.1.1').organization).toMatch(/comcast/i);
    expect(classify('202.96.128.86')).toMatchObject({ asn: 4134, kind: 'isp' });
  });

  it('classifies addresses whose networks the rule file does not list by number', () => {
    const cases: [string, string, RegExp][] = [
      ['5.182.186.1', 'isp', /comcast/i], // Comcast's AS33651
      ['1.48.64.1', 'isp', /china telecom/i], // China Telecom's AS140647
      ['2.17.224.1', 'isp', /telekom/i], // Türk Telekom
      ['128.32.0.1', 'education', /berkeley/i],
      ['18.0.0.1', 'education', /massachusetts institute of technology/i],
      ['23.253.0.1', 'hosting', /rackspace/i],
      ['62.177.128.1', 'mobile', /t-mobile/i],
    ];
    for (const [ip, kind, owner] of cases) {
      const c = classify(ip);
      expect(c.asn, ip).not.toBeNull();
      expect(Object.hasOwn(KNOWN_ASNS, c.asn!), `${ip} AS${c.asn} must not be listed by number`).toBe(false);
      expect(c.organization, ip).toMatch(owner);
      expect(c, ip).toMatchObject({ kind, rule: `name:${kind}` });
    }
  });

  it('an address no network announces has no ASN and an unknown kind', () => {
    // 0.0.0.1 is in 0.0.0.0/8, never announced.
    expect(classify('0.0.0.1')).toMatchObject({ asn: null, kind: 'unknown', rule: 'none' });
  });

  it('finds locations: country, region and city where the data has them', () => {
    expect(data.locate(4, '8.8.8.8')).toMatchObject({ countryCode: 'US' });
    expect(data.locate(4, '73.162.1.1')).toMatchObject({ countryCode: 'US', region: 'California' });
    expect(data.locate(4, '202.96.128.86')).toMatchObject({ countryCode: 'CN' });
    expect(data.locate(6, '2001:4860:4860::8888')).toMatchObject({ countryCode: 'US' });
    expect(data.locate(4, '10.0.0.1')).toBeNull();
  });
});
