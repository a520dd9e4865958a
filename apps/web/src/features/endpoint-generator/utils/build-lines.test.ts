import { describe, expect, it } from 'vitest';
import { parseProxyUsername } from '@proxy/contract';
import { buildEndpointLines, clampCount, clampStickyMinutes, createSessionId } from './build-lines';

const token = { host: 'gw.example.com', port: 7777, username: 'u8k2m', password: 'p4ss' };

describe('endpoint lines', () => {
  it('rotating lines carry the area in the username grammar and no session', () => {
    const lines = buildEndpointLines(token, {
      country: 'US',
      state: 'ca',
      city: 'losangeles',
      mode: 'rotating',
      format: 'hpup',
      count: 3,
    });
    expect(lines).toEqual([
      'gw.example.com:7777:u8k2m-country-us-state-ca-city-losangeles:p4ss',
      'gw.example.com:7777:u8k2m-country-us-state-ca-city-losangeles:p4ss',
      'gw.example.com:7777:u8k2m-country-us-state-ca-city-losangeles:p4ss',
    ]);
  });

  it('leaves out the parts of the area that are not chosen', () => {
    expect(buildEndpointLines(token, { mode: 'rotating', format: 'hpup', count: 1 })).toEqual([
      'gw.example.com:7777:u8k2m:p4ss',
    ]);
    expect(
      buildEndpointLines(token, { country: 'gb', city: 'london', mode: 'rotating', format: 'hpup', count: 1 }),
    ).toEqual(['gw.example.com:7777:u8k2m-country-gb-city-london:p4ss']);
  });

  it('writes the four line formats', () => {
    const settings = { country: 'de', mode: 'rotating' as const, count: 1 };
    expect(buildEndpointLines(token, { ...settings, format: 'hpup' })).toEqual([
      'gw.example.com:7777:u8k2m-country-de:p4ss',
    ]);
    expect(buildEndpointLines(token, { ...settings, format: 'upahp' })).toEqual([
      'u8k2m-country-de:p4ss@gw.example.com:7777',
    ]);
    expect(buildEndpointLines(token, { ...settings, format: 'http' })).toEqual([
      'http://u8k2m-country-de:p4ss@gw.example.com:7777',
    ]);
    expect(buildEndpointLines(token, { ...settings, format: 'socks5' })).toEqual([
      'socks5://u8k2m-country-de:p4ss@gw.example.com:7777',
    ]);
  });

  it('sticky lines each get a distinct session id and the sticky minutes, and parse back', () => {
    const lines = buildEndpointLines(token, {
      country: 'us',
      state: 'ca',
      mode: 'sticky',
      sesstime: 30,
      format: 'http',
      count: 200,
    });
    expect(lines).toHaveLength(200);
    const sessions = lines.map((line) => {
      const match = /^http:\/\/([^:]+):p4ss@gw\.example\.com:7777$/.exec(line);
      expect(match, line).not.toBeNull();
      const parsed = parseProxyUsername(match![1]);
      expect(parsed).not.toBeNull();
      expect(parsed!.username).toBe('u8k2m');
      expect(parsed!.options).toMatchObject({ country: 'us', state: 'ca', sesstime: 30 });
      expect(parsed!.options.session).toMatch(/^[a-z0-9]{8}$/);
      return parsed!.options.session;
    });
    expect(new Set(sessions).size).toBe(200);
    expect(lines[0]).toMatch(/^http:\/\/u8k2m-country-us-state-ca-session-[a-z0-9]{8}-sesstime-30:p4ss@/);
  });

  it('keeps sessions distinct even when the id source repeats itself', () => {
    const lines = buildEndpointLines(token, { mode: 'sticky', sesstime: 5, format: 'hpup', count: 3 }, () => 'same');
    const sessions = lines.map((line) => parseProxyUsername(line.split(':')[2])!.options.session);
    expect(new Set(sessions).size).toBe(3);
  });

  it('clamps sticky minutes to 1-120 and the count to 1-10000', () => {
    expect(clampStickyMinutes(0)).toBe(1);
    expect(clampStickyMinutes(500)).toBe(120);
    expect(clampStickyMinutes(undefined)).toBe(10);
    expect(clampCount(0)).toBe(1);
    expect(clampCount(50_000)).toBe(10_000);
    const lines = buildEndpointLines(token, { mode: 'sticky', sesstime: 999, format: 'hpup', count: 2 });
    expect(parseProxyUsername(lines[0].split(':')[2])!.options.sesstime).toBe(120);
  });

  it('a static token has one plain line whatever the options', () => {
    const lines = buildEndpointLines(
      { ...token, isPinned: true },
      { country: 'us', mode: 'sticky', sesstime: 5, format: 'upahp', count: 5 },
    );
    expect(lines).toEqual(['u8k2m:p4ss@gw.example.com:7777']);
  });

  it('session ids use only the characters the grammar allows', () => {
    for (let i = 0; i < 50; i++) expect(createSessionId()).toMatch(/^[a-z0-9]{8}$/);
  });
});
