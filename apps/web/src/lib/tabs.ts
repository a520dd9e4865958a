import { useSyncExternalStore } from 'react';
import { navigateTo } from './navigation';
import { readValue, removeRecord, writeRecord } from './storage';

/** An open tab: keyed by pathname, remembering the full path (with search) and the title's i18n key. */
export type TTab = { key: string; path: string; titleKey: string };

/** Open tabs and the active one, kept in sessionStorage (spec section 2). */
export type TTabsState = { tabs: TTab[]; active: string | null };

/** Which tabs a close command removes, relative to the tab it was given. */
export type TCloseMode = 'this' | 'others' | 'left' | 'right';

const TABS_KEY = 'TABS';
const EMPTY: TTabsState = { tabs: [], active: null };
/** Paths that never become tabs (spec section 2). */
export const NEVER_TAB_PATHS: readonly string[] = ['/404', '/login'];

/** True when a path may be shown as a tab. */
export function canBeTab(pathname: string): boolean {
  return !NEVER_TAB_PATHS.includes(pathname);
}

/** Opens (or refreshes) a tab and makes it active. */
export function addTab(state: TTabsState, tab: TTab): TTabsState {
  if (!canBeTab(tab.key)) return state;
  const index = state.tabs.findIndex((t) => t.key === tab.key);
  const tabs = index === -1 ? [...state.tabs, tab] : state.tabs.map((t, i) => (i === index ? tab : t));
  return { tabs, active: tab.key };
}

/**
 * Closes tabs relative to `key`. When the active tab is among the removed,
 * the answer names where to go: the last remaining tab, or "/" when none is left.
 */
export function closeTabs(
  state: TTabsState,
  key: string,
  mode: TCloseMode,
): { state: TTabsState; goTo: string | null } {
  const index = state.tabs.findIndex((t) => t.key === key);
  if (index === -1) return { state, goTo: null };
  const kept = state.tabs.filter((_, i) => {
    switch (mode) {
      case 'this':
        return i !== index;
      case 'others':
        return i === index;
      case 'left':
        return i >= index;
      case 'right':
        return i <= index;
    }
  });
  const isActiveKept = state.active !== null && kept.some((t) => t.key === state.active);
  if (isActiveKept) return { state: { tabs: kept, active: state.active }, goTo: null };
  const last = kept.at(-1);
  return { state: { tabs: kept, active: last?.key ?? null }, goTo: last?.path ?? '/' };
}

// --- the store ------------------------------------------------------------

let current: TTabsState = loadState();
const listeners = new Set<() => void>();

function loadState(): TTabsState {
  const saved = readValue<TTabsState>('session', TABS_KEY);
  if (!saved || !Array.isArray(saved.tabs)) return EMPTY;
  return {
    tabs: saved.tabs.filter((t) => t && typeof t.key === 'string' && canBeTab(t.key)),
    active: saved.active ?? null,
  };
}

function commit(next: TTabsState): void {
  if (next === current) return;
  current = next;
  if (next.tabs.length === 0 && next.active === null) removeRecord('session', TABS_KEY);
  else writeRecord('session', TABS_KEY, next);
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current tabs state (outside React). */
export function getTabsState(): TTabsState {
  return current;
}

/** The tabs state, re-rendering on change. */
export function useTabs(): TTabsState {
  return useSyncExternalStore(subscribe, getTabsState, getTabsState);
}

/** Opens a tab for the page being shown. */
export function openTab(tab: TTab): void {
  commit(addTab(current, tab));
}

/** Runs a close command and navigates when the active tab went away. Returns the keys removed. */
export function closeTab(key: string, mode: TCloseMode): string[] {
  const { state, goTo } = closeTabs(current, key, mode);
  const removed = current.tabs.filter((t) => !state.tabs.some((k) => k.key === t.key)).map((t) => t.key);
  commit(state);
  if (goTo) navigateTo(goTo);
  return removed;
}

/** Forgets every tab (logout). */
export function clearTabs(): void {
  commit(EMPTY);
}

/** Re-reads the store from sessionStorage (tests and a fresh page). */
export function reloadTabs(): void {
  current = loadState();
  listeners.forEach((listener) => listener());
}
