import { beforeEach, describe, expect, it } from 'vitest';
import { detectLanguage, getLanguage, i18n, initialLanguage, setLanguage } from './i18n';

beforeEach(() => localStorage.clear());

describe('language rule', () => {
  it('takes the stored language first', () => {
    expect(detectLanguage('en', 'zh-CN')).toBe('en');
    expect(detectLanguage('zh', 'en-US')).toBe('zh');
  });

  it('else Chinese when the browser language contains zh, otherwise English', () => {
    expect(detectLanguage(null, 'zh-CN')).toBe('zh');
    expect(detectLanguage(null, 'zh-TW')).toBe('zh');
    expect(detectLanguage(null, 'ZH')).toBe('zh');
    expect(detectLanguage(null, 'en-US')).toBe('en');
    expect(detectLanguage(null, 'de-DE')).toBe('en');
    expect(detectLanguage(null, undefined)).toBe('en');
    expect(detectLanguage('fr', 'en-GB')).toBe('en');
  });

  it('saves the detected language', () => {
    const detected = initialLanguage();
    expect(JSON.parse(localStorage.getItem('PROXYHUB_LANG')!).value).toBe(detected);
  });

  it('setLanguage switches i18next and saves the choice', () => {
    setLanguage('en');
    expect(getLanguage()).toBe('en');
    expect(i18n.t('common:actions.ok')).toBe('OK');
    expect(JSON.parse(localStorage.getItem('PROXYHUB_LANG')!).value).toBe('en');
    setLanguage('zh');
    expect(i18n.t('common:actions.ok')).toBe('确定');
    expect(initialLanguage()).toBe('zh');
  });
});
