import { useSyncExternalStore } from 'react';
import { readValue, writeRecord } from './storage';

/**
 * Light or dark mode (spec section 2): follows the system's
 * prefers-color-scheme until the user toggles, then the stored choice wins.
 */

/** A theme mode. */
export type TThemeMode = 'light' | 'dark';

const THEME_KEY = 'THEME';
const DARK_QUERY = '(prefers-color-scheme: dark)';
const listeners = new Set<() => void>();

function systemPrefersDark(): boolean {
  return (
    typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches
  );
}

function readStoredMode(): TThemeMode | null {
  const stored = readValue<string>('local', THEME_KEY);
  return stored === 'light' || stored === 'dark' ? stored : null;
}

/** The mode in force: the stored choice, else the system preference. */
export function getThemeMode(): TThemeMode {
  return readStoredMode() ?? (systemPrefersDark() ? 'dark' : 'light');
}

function notify(): void {
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const media = typeof window.matchMedia === 'function' ? window.matchMedia(DARK_QUERY) : null;
  media?.addEventListener?.('change', listener);
  return () => {
    listeners.delete(listener);
    media?.removeEventListener?.('change', listener);
  };
}

/** Stores a mode chosen by the user. */
export function setThemeMode(mode: TThemeMode): void {
  writeRecord('local', THEME_KEY, mode);
  notify();
}

/** Switches between light and dark. */
export function toggleThemeMode(): void {
  setThemeMode(getThemeMode() === 'dark' ? 'light' : 'dark');
}

/** The mode in force, re-rendering on toggle or system change. */
export function useThemeMode(): TThemeMode {
  return useSyncExternalStore(subscribe, getThemeMode, () => 'light');
}
