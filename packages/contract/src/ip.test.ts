import { describe, expect, it } from 'vitest';
import {
  addressScope,
  canonicalAddress,
  createIpMatcher,
  findDuplicateRanges,
  IP_LIST_NAMES,
  IP_LISTS,
  ipBoundFromHex,
  ipBoundToHex,
  ipRangeKey,
  isIpParseError,
  parseIpEntries,
  parseIpEntry,
} from './ip';

function ok(input: string) {
  const r = parseIpEntry(input);
  if (isIpParseError(r)) throw new Error(`expected ${input} to parse, got ${r.reason}`);
  return r;
}
function reason(input: string) {
  const r = parseIpEntry(input);
  return isIpParseError(r) ? r.reason : 'ok';
}

describe('IP entries', () => {
  it('parses single addresses of both families', () => {
    expect(ok(' 1.2.3.4 ')).toMatchObject({ family: 4, kind: 'single', text: '1.2.3.4' });
    expect(ok('2001:DB8:0:0::1')).toMatchObject({ family: 6, kind: 'single', text: '2001:db8::1' });
  });
  it('treats IPv4-mapped IPv6 as IPv4', () => {
    expect(ok('::ffff:1.2.3.4').text).toBe('1.2.3.4');
    expect(ipRangeKey(ok('::ffff:1.2.3.4'))).toBe(ipRangeKey(ok('1.2.3.4')));
    expect(ok('::ffff:10.0.0.0/120').text).toBe('10.0.0.0/24');
  });
  it('refuses leading zeros, junk and zones', () => {
    for (const bad of [
      '010.0.0.1',
      '1.2.3',
      '1.2.3.4.5',
      '256.1.1.1',
      'abc',
      '1.2.3.4 5',
      'fe80::1%eth0',
      '::ffff:01.2.3.4',
      '1.2.3.-1',
    ]) {
      expect(reason(bad)).toBe('format');
    }
  });
  it('normalises CIDR blocks to their network and checks the prefix', () => {
    const r = ok('10.0.0.5/24');
    expect(r.text).toBe('10.0.0.0/24');
    expect(r.end - r.start).toBe(255n);
    expect(ok('0.0.0.0/0').end).toBe(0xffffffffn);
    expect(ok('2001:db8::/32').kind).toBe('cidr');
    expect(reason('1.2.3.4/33')).toBe('prefix');
    expect(reason('2001:db8::/129')).toBe('prefix');
    expect(reason('1.2.3.4/')).toBe('format');
    expect(reason('1.2.3.4/2/3')).toBe('format');
    expect(reason('1.2.3.4/-1')).toBe('format');
  });
  it('parses ranges and refuses reversed or mixed ones', () => {
    expect(ok('10.0.0.1 - 10.0.0.9')).toMatchObject({ kind: 'range', text: '10.0.0.1-10.0.0.9' });
    expect(ok('10.0.0.1-10.0.0.1').kind).toBe('single');
    expect(reason('10.0.0.5-10.0.0.1')).toBe('order');
    expect(reason('10.0.0.1-::1')).toBe('family');
    expect(reason('10.0.0.1-')).toBe('format');
    expect(reason('1-2-3')).toBe('format');
  });
  it('splits on semicolons, ignoring blank parts, all or nothing', () => {
    expect(parseIpEntries('1.2.3.4; 10.0.0.0/8 ;;').ranges.map((r) => r.text)).toEqual(['1.2.3.4', '10.0.0.0/8']);
    expect(parseIpEntries(' ; ').errors[0].reason).toBe('empty');
    const mixed = parseIpEntries('1.2.3.4;nope');
    expect(mixed.errors.map((e) => e.input)).toEqual(['nope']);
  });
  it('same normalised range means duplicate', () => {
    expect(ipRangeKey(ok('10.0.0.7/24'))).toBe(ipRangeKey(ok('10.0.0.0-10.0.0.255')));
    expect(ipRangeKey(ok('10.0.0.0/24'))).not.toBe(ipRangeKey(ok('10.0.0.0/25')));
  });
  it('matches addresses, including IPv4-mapped socket addresses', () => {
    const m = createIpMatcher([ok('10.0.0.0/8'), ok('2001:db8::/32'), ok('192.168.1.10-192.168.1.20')]);
    expect(m.matches('10.200.3.4')).toBe(true);
    expect(m.matches('::ffff:10.1.1.1')).toBe(true);
    expect(m.matches('11.0.0.1')).toBe(false);
    expect(m.matches('2001:db8:ffff::1')).toBe(true);
    expect(m.matches('192.168.1.21')).toBe(false);
    expect(m.matches('192.168.1.20')).toBe(true);
    expect(m.matches('garbage')).toBe(false);
  });
});

describe('address scope', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    // IPv4-mapped (::ffff:0:0/96) and IPv4-compatible (::/96) addresses are what the IPv4 address they embed is.
    ['::ffff:7f00:1', 'loopback'],
    ['0:0:0:0:0:ffff:a00:1', 'private'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::7f00:1', 'loopback'],
    ['0:0:0:0:0:0:7f00:1', 'loopback'],
    ['::127.0.0.1', 'loopback'],
    ['::a00:1', 'private'],
    ['::c0a8:101', 'private'],
    ['::6440:1', 'private'],
    ['::a9fe:a9fe', 'link-local'],
    ['::2', 'unspecified'],
    ['::e000:1', 'multicast'],
    ['::808:808', 'public'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fd00::1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'multicast'],
    ['192.0.2.1', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['not-an-ip', null],
  ])('%s is %s', (ip, scope) => {
    expect(addressScope(ip)).toBe(scope);
  });
});

describe('canonical address', () => {
  it.each([
    ['8.8.8.8', '8.8.8.8'],
    ['::ffff:8.8.8.8', '8.8.8.8'],
    ['::ffff:808:808', '8.8.8.8'],
    ['::808:808', '8.8.8.8'],
    ['0:0:0:0:0:0:7f00:1', '127.0.0.1'],
    ['::1', '::1'],
    ['0:0:0:0:0:0:0:0', '::'],
    ['2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
    ['not-an-ip', null],
  ])('%s is %s', (input, text) => {
    expect(canonicalAddress(input)).toBe(text);
  });
});

describe('IP list storage helpers', () => {
  it('stores bounds as 32 hex digits that sort like the numbers', () => {
    const r = ok('10.0.0.0/24');
    expect(ipBoundToHex(r.start)).toBe('0000000000000000000000000a000000');
    expect(ipBoundToHex(r.end)).toHaveLength(32);
    expect(ipBoundFromHex(ipBoundToHex(r.end))).toBe(r.end);
    const v6 = ok('ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff');
    expect(ipBoundToHex(v6.start)).toBe('f'.repeat(32));
    expect(ipBoundFromHex('f'.repeat(32))).toBe(v6.start);
    expect(ipBoundToHex(ok('9.255.255.255').start) < ipBoundToHex(ok('10.0.0.0').start)).toBe(true);
  });
  it('finds duplicates within one submission by normalised range', () => {
    const { ranges } = parseIpEntries('1.2.3.4; 10.0.0.0/24; ::ffff:1.2.3.4; 10.0.0.0-10.0.0.255; 10.0.0.0/25');
    expect(findDuplicateRanges(ranges).map((r) => r.text)).toEqual(['1.2.3.4', '10.0.0.0-10.0.0.255']);
    expect(findDuplicateRanges(parseIpEntries('1.2.3.4;1.2.3.5').ranges)).toEqual([]);
  });
  it('names both lists in both languages', () => {
    expect(IP_LISTS.map((l) => IP_LIST_NAMES[l].en)).toEqual(['whitelist', 'blacklist']);
    expect(IP_LIST_NAMES.blacklist.zh).toBe('黑名单');
  });
});
