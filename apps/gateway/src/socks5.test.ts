import { describe, expect, it } from 'vitest';
import { buildConnectRequest, buildUserPass, parseGreeting, parseRequest, parseUserPass } from './socks5';

describe('SOCKS5 parsers', () => {
  it('greeting: complete, truncated, wrong version, no methods', () => {
    expect(parseGreeting(Buffer.from([5, 2, 0, 2]))).toEqual({ status: 'ok', value: { methods: [0, 2] }, used: 4 });
    expect(parseGreeting(Buffer.from([5, 2, 0]))).toEqual({ status: 'more' });
    expect(parseGreeting(Buffer.from([5]))).toEqual({ status: 'more' });
    expect(parseGreeting(Buffer.from([4, 1, 0]))).toMatchObject({ status: 'error', error: 'version' });
    expect(parseGreeting(Buffer.from([5, 0]))).toMatchObject({ status: 'error', error: 'no-methods' });
  });
  it('user/pass: round trip, truncated at each point, wrong version, empty user', () => {
    const full = buildUserPass('user-country-us', 'p@ss:w/rd');
    expect(parseUserPass(full)).toEqual({
      status: 'ok',
      value: { username: 'user-country-us', password: 'p@ss:w/rd' },
      used: full.length,
    });
    for (let n = 0; n < full.length; n++) expect(parseUserPass(full.subarray(0, n)).status).toBe('more');
    expect(parseUserPass(Buffer.from([2, 1, 65, 0]))).toMatchObject({ status: 'error' });
    expect(parseUserPass(Buffer.from([1, 0, 0]))).toMatchObject({ status: 'error', error: 'empty-username' });
    expect(parseUserPass(Buffer.from([1, 1, 65, 0]))).toMatchObject({
      status: 'ok',
      value: { username: 'A', password: '' },
    });
  });
  it('request: IPv4, IPv6 and domain targets round trip', () => {
    for (const [host, type] of [
      ['93.184.216.34', 'ipv4'],
      ['2001:db8:0:0:0:0:0:1', 'ipv6'],
      ['example.com', 'domain'],
    ] as const) {
      const buf = buildConnectRequest(host, 8443);
      const r = parseRequest(buf);
      expect(r).toMatchObject({ status: 'ok', used: buf.length, value: { command: 1, target: { port: 8443, type } } });
      if (r.status === 'ok' && type !== 'ipv6') expect(r.value.target.host).toBe(host);
      for (let n = 0; n < buf.length; n++) expect(parseRequest(buf.subarray(0, n)).status).toBe('more');
    }
    const v6 = parseRequest(buildConnectRequest('::1', 80));
    expect(v6.status === 'ok' && v6.value.target.host).toBe('0:0:0:0:0:0:0:1');
  });
  it('request: refuses bad version, reserved byte, address type, empty or odd domain, port 0', () => {
    expect(parseRequest(Buffer.from([4, 1, 0, 1, 1, 2, 3, 4, 0, 80]))).toMatchObject({
      status: 'error',
      error: 'version',
    });
    expect(parseRequest(Buffer.from([5, 1, 1, 1, 1, 2, 3, 4, 0, 80]))).toMatchObject({
      status: 'error',
      error: 'reserved',
    });
    expect(parseRequest(Buffer.from([5, 1, 0, 9, 1, 2, 3, 4, 0, 80]))).toMatchObject({
      status: 'error',
      error: 'address-type',
    });
    expect(parseRequest(Buffer.from([5, 1, 0, 3, 0, 0, 80]))).toMatchObject({ status: 'error', error: 'empty-domain' });
    expect(parseRequest(Buffer.from([5, 1, 0, 3, 3, 0x61, 0x20, 0x62, 0, 80]))).toMatchObject({
      status: 'error',
      error: 'domain',
    });
    expect(parseRequest(Buffer.from([5, 1, 0, 1, 1, 2, 3, 4, 0, 0]))).toMatchObject({ status: 'error', error: 'port' });
  });
  it('request: other commands parse so they can be refused with "command not supported"', () => {
    const bind = Buffer.from(buildConnectRequest('1.2.3.4', 80));
    bind[1] = 2;
    expect(parseRequest(bind)).toMatchObject({ status: 'ok', value: { command: 2 } });
  });
  it('credentials longer than 255 bytes cannot be built', () => {
    expect(() => buildUserPass('x'.repeat(256), '')).toThrow();
  });
});
