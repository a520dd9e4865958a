import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SETTINGS,
  normalizeBypassEntry,
  originBypassRule,
  proxyConfigOf,
  proxyFromPayload,
  readSettings,
} from './settings';
import { payload } from './test-grants';

describe('proxy settings from a grant', () => {
  it('takes a valid HTTP proxy', () => {
    const result = proxyFromPayload(payload(1000));
    expect(result).toEqual({
      ok: true,
      proxy: expect.objectContaining({ token_id: 7, host: 'gw.example.com', port: 7777, username: 'u1a2b3c4d5e6' }),
    });
  });

  it('refuses SOCKS5 with its own reason, whatever else the payload holds', () => {
    expect(proxyFromPayload(payload(1000, { network: 'SOCKS5' }))).toEqual({ ok: false, reason: 'socks5-unsupported' });
    expect(proxyFromPayload({ network: 'SOCKS5', port: 'x' })).toEqual({ ok: false, reason: 'socks5-unsupported' });
  });

  it.each([
    ['a port out of range', { port: 70000 }],
    ['a port of zero', { port: 0 }],
    ['a host with a path', { host: 'gw.example.com/x' }],
    ['an empty host', { host: '' }],
    ['a password with a colon', { password: 'a:b' }],
    ['an empty username', { username: '' }],
    ['a control character', { username: 'a\nb' }],
    ['an unknown network', { network: 'FTP' as never }],
    ['an unknown version', { v: 2 as never }],
    ['a negative token id', { token_id: -1 }],
  ])('refuses %s', (_name, patch) => {
    expect(proxyFromPayload(payload(1000, patch))).toEqual({ ok: false, reason: 'bad-grant' });
  });
});

describe('the bypass list', () => {
  it.each([
    ['example.com', 'example.com'],
    [' Example.COM ', 'example.com'],
    ['*.example.com', '*.example.com'],
    ['example.com:8443', 'example.com:8443'],
    ['https://shop.example.com/path?q=1', 'shop.example.com'],
    ['10.0.0.1', '10.0.0.1'],
  ])('takes %s as %s', (input, expected) => {
    expect(normalizeBypassEntry(input)).toBe(expected);
  });

  it.each(['', 'exa mple.com', 'example.com:99999', '*', 'a/b', '<-loopback>', '-bad-.com'])('refuses %j', (input) => {
    expect(normalizeBypassEntry(input)).toBeNull();
  });
});

describe('the browser proxy configuration', () => {
  const parsed = proxyFromPayload(payload(1000));
  if (!parsed.ok) throw new Error('the test payload is valid');
  const proxy = parsed.proxy;

  it('bypasses the console origin always, then the user sites', () => {
    const config = proxyConfigOf(
      { ...DEFAULT_SETTINGS, enabled: true, proxy, bypass: ['example.com'] },
      'https://console.example.com',
    );
    expect(config).toEqual({
      mode: 'fixed_servers',
      rules: {
        singleProxy: { scheme: 'http', host: 'gw.example.com', port: 7777 },
        bypassList: ['https://console.example.com:443', 'example.com'],
      },
    });
  });

  it('proxies loopback only with the test-only setting', () => {
    const plain = proxyConfigOf({ ...DEFAULT_SETTINGS, enabled: true, proxy }, 'http://127.0.0.1:8080');
    expect(plain.rules?.bypassList).toEqual(['http://127.0.0.1:8080']);
    const dev = proxyConfigOf(
      { ...DEFAULT_SETTINGS, enabled: true, proxy, devProxyLoopback: true },
      'http://127.0.0.1:8080',
    );
    expect(dev.rules?.bypassList).toEqual(['<-loopback>', 'http://127.0.0.1:8080']);
  });

  it('gives the browser back its own settings when off', () => {
    expect(proxyConfigOf({ ...DEFAULT_SETTINGS, enabled: false, proxy }, 'http://127.0.0.1:8080')).toEqual({
      mode: 'system',
    });
  });

  it('names the default port of the origin', () => {
    expect(originBypassRule('http://console.example.com')).toBe('http://console.example.com:80');
  });

  it('reads stored settings defensively', () => {
    expect(
      readSettings({ enabled: true, proxy: { host: 'x y' }, bypass: ['ok.com', 'bad host', 3], lang: 'fr' }),
    ).toEqual({
      ...DEFAULT_SETTINGS,
      bypass: ['ok.com'],
    });
    expect(readSettings({ enabled: true, proxy }).enabled).toBe(true);
  });
});
