import { beforeEach, describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_TTL_S } from '@proxy/contract';
import { clearToken, getAccessToken, getTokenRecord, isSignedIn, logout, replaceToken, saveSession } from './session';
import { STORAGE_PREFIX, prefixedKey, readRecord, writeRecord } from './storage';
import { registerNavigator } from './navigation';
import { getTabsState, openTab } from './tabs';

// Every test starts signed out.
beforeEach(() => clearToken());

describe('token storage', () => {
  it('"remember me" keeps the token in localStorage as { value, time, expire }', () => {
    const before = Date.now();
    saveSession('abc', { remember: true });
    const raw = JSON.parse(localStorage.getItem('PROXYHUB_TOKEN')!);
    expect(raw.value).toBe('abc');
    expect(raw.expire).toBe(216000);
    expect(raw.expire).toBe(ACCESS_TOKEN_TTL_S);
    expect(raw.time).toBeGreaterThanOrEqual(before);
    expect(sessionStorage.getItem('PROXYHUB_TOKEN')).toBeNull();
    expect(getAccessToken()).toBe('abc');
    expect(isSignedIn()).toBe(true);
  });

  it('without "remember me" the token lives in sessionStorage only', () => {
    saveSession('old', { remember: true });
    saveSession('abc', { remember: false });
    expect(localStorage.getItem('PROXYHUB_TOKEN')).toBeNull();
    expect(JSON.parse(sessionStorage.getItem('PROXYHUB_TOKEN')!).value).toBe('abc');
    replaceToken('new');
    expect(getTokenRecord()?.kind).toBe('session');
    expect(getAccessToken()).toBe('new');
  });

  it('every key carries the one upper-case prefix', () => {
    saveSession('abc', { remember: true });
    writeRecord('local', 'lang', 'zh');
    expect(prefixedKey('lang')).toBe('PROXYHUB_LANG');
    expect(STORAGE_PREFIX).toMatch(/^[A-Z_]+$/);
    for (const key of [...Object.keys(localStorage), ...Object.keys(sessionStorage)])
      expect(key.startsWith(STORAGE_PREFIX)).toBe(true);
  });

  it('a token older than 216000 s has expired and is removed', () => {
    const now = Date.now();
    writeRecord('local', 'TOKEN', 'stale', ACCESS_TOKEN_TTL_S, now - ACCESS_TOKEN_TTL_S * 1000 - 1);
    expect(getAccessToken()).toBeNull();
    expect(localStorage.getItem('PROXYHUB_TOKEN')).toBeNull();
    writeRecord('local', 'TOKEN', 'fresh', ACCESS_TOKEN_TTL_S, now - ACCESS_TOKEN_TTL_S * 1000 + 60_000);
    expect(getAccessToken()).toBe('fresh');
  });

  it('a record that is not valid JSON reads as missing', () => {
    localStorage.setItem('PROXYHUB_TOKEN', 'not json');
    expect(readRecord('local', 'TOKEN')).toBeNull();
    expect(isSignedIn()).toBe(false);
  });
});

describe('logout', () => {
  it('clears token and tabs and goes to /login with a redirect query', () => {
    const navigations: string[] = [];
    registerNavigator((to) => navigations.push(to));
    try {
      saveSession('abc', { remember: true });
      openTab({ key: '/user-center', path: '/user-center', titleKey: 'x' });
      window.history.pushState({}, '', '/user-center?tab=2');
      logout();
      expect(isSignedIn()).toBe(false);
      expect(getTabsState().tabs).toEqual([]);
      expect(sessionStorage.getItem('PROXYHUB_TABS')).toBeNull();
      expect(navigations).toEqual(['/login?redirect=%2Fuser-center%3Ftab%3D2']);
      window.history.pushState({}, '', '/login');
      logout();
      expect(navigations).toHaveLength(1);
    } finally {
      window.history.pushState({}, '', '/');
      registerNavigator(null);
    }
  });
});
