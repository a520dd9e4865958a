import { describe, expect, it } from 'vitest';
import { pickLanguage, text, TEXTS } from './i18n';
import { parsePackageConfig } from './package-config';

describe('the popup language', () => {
  it('follows the browser unless chosen', () => {
    expect(pickLanguage('auto', 'zh-CN')).toBe('zh');
    expect(pickLanguage('auto', 'en-US')).toBe('en');
    expect(pickLanguage('auto', undefined)).toBe('en');
    expect(pickLanguage('zh', 'en-US')).toBe('zh');
  });

  it('has the same texts in both languages', () => {
    expect(Object.keys(TEXTS.zh).sort()).toEqual(Object.keys(TEXTS.en).sort());
    expect(text('en', 'ipIs', { ip: '1.2.3.4' })).toBe('Your IP: 1.2.3.4');
  });
});

describe('the package config', () => {
  const good = {
    console_origin: 'https://console.example.com',
    public_key: 'AAAA',
    echo_url: 'http://console.example.com/api/proxy/echo',
  };
  it('takes what the server writes', () => {
    expect(parsePackageConfig(good)).toEqual(good);
  });
  it.each([
    null,
    {},
    { ...good, console_origin: 'https://console.example.com/' },
    { ...good, console_origin: 'ftp://x' },
    { ...good, echo_url: 'nope' },
  ])('refuses %j', (value) => {
    expect(parsePackageConfig(value)).toBeNull();
  });
});
