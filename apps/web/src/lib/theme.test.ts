import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getThemeMode, setThemeMode, toggleThemeMode } from './theme';

const realMatchMedia = window.matchMedia;

/** jsdom has no real media queries: stand in for the operating system's colour-scheme setting. */
function setSystemDark(isDark: boolean) {
  window.matchMedia = ((query: string) => ({
    ...realMatchMedia(query),
    matches: isDark && query.includes('prefers-color-scheme: dark'),
  })) as typeof window.matchMedia;
}

beforeEach(() => localStorage.clear());
afterEach(() => {
  window.matchMedia = realMatchMedia;
});

describe('theme mode', () => {
  it('follows the system until toggled', () => {
    setSystemDark(true);
    expect(getThemeMode()).toBe('dark');
    setSystemDark(false);
    expect(getThemeMode()).toBe('light');
  });

  it('a toggle is stored and wins over the system', () => {
    setSystemDark(true);
    toggleThemeMode();
    expect(getThemeMode()).toBe('light');
    expect(JSON.parse(localStorage.getItem('PROXYHUB_THEME')!).value).toBe('light');
    setSystemDark(false);
    expect(getThemeMode()).toBe('light');
    setThemeMode('dark');
    expect(getThemeMode()).toBe('dark');
  });
});
