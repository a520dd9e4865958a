import { describe, expect, it } from 'vitest';
import { formatProxyUsername, parseProxyUsername } from './proxy-username';

describe('proxy username options', () => {
  it('parses the full grammar', () => {
    expect(parseProxyUsername('u8f3k2-country-US-state-ca-city-losangeles-session-abc123-sesstime-10')).toEqual({
      username: 'u8f3k2',
      options: { country: 'us', state: 'ca', city: 'losangeles', session: 'abc123', sesstime: 10 },
    });
  });
  it('a plain username has no options', () => {
    expect(parseProxyUsername('u8f3k2')).toEqual({ username: 'u8f3k2', options: {} });
  });
  it.each([
    '',
    'u-country',
    'u-planet-mars',
    'u-sesstime-0',
    'u-sesstime-121',
    'u-sesstime-x',
    'u-country-us-country-de',
    'u-session-a.b',
    '-country-us',
  ])('refuses %j', (raw) => expect(parseProxyUsername(raw)).toBeNull());
  it('formats what it parses', () => {
    const options = { country: 'de', city: 'berlin', session: 'S1', sesstime: 30 };
    const text = formatProxyUsername('abc', options);
    expect(text).toBe('abc-country-de-city-berlin-session-S1-sesstime-30');
    expect(parseProxyUsername(text)?.options).toEqual(options);
  });
});
