import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerNavigator } from './navigation';
import { addTab, clearTabs, closeTab, closeTabs, getTabsState, openTab, reloadTabs, type TTabsState } from './tabs';

const tab = (key: string) => ({ key, path: key, titleKey: `t${key}` });
const keys = (state: TTabsState) => state.tabs.map((t) => t.key);

function stateOf(active: string, ...all: string[]): TTabsState {
  return { tabs: all.map(tab), active };
}

describe('closing tabs', () => {
  it('close this: the active tab goes, navigation to the last remaining tab', () => {
    const { state, goTo } = closeTabs(stateOf('/b', '/a', '/b', '/c'), '/b', 'this');
    expect(keys(state)).toEqual(['/a', '/c']);
    expect(goTo).toBe('/c');
    expect(state.active).toBe('/c');
  });

  it('close this on an inactive tab keeps the active one and does not navigate', () => {
    const { state, goTo } = closeTabs(stateOf('/b', '/a', '/b', '/c'), '/a', 'this');
    expect(keys(state)).toEqual(['/b', '/c']);
    expect(goTo).toBeNull();
    expect(state.active).toBe('/b');
  });

  it('close others keeps only the given tab', () => {
    const { state, goTo } = closeTabs(stateOf('/c', '/a', '/b', '/c', '/d'), '/b', 'others');
    expect(keys(state)).toEqual(['/b']);
    expect(goTo).toBe('/b');
  });

  it('close left and right', () => {
    const left = closeTabs(stateOf('/c', '/a', '/b', '/c', '/d'), '/c', 'left');
    expect(keys(left.state)).toEqual(['/c', '/d']);
    expect(left.goTo).toBeNull();
    const right = closeTabs(stateOf('/d', '/a', '/b', '/c', '/d'), '/b', 'right');
    expect(keys(right.state)).toEqual(['/a', '/b']);
    expect(right.goTo).toBe('/b');
    const leftOfActive = closeTabs(stateOf('/a', '/a', '/b', '/c'), '/c', 'left');
    expect(keys(leftOfActive.state)).toEqual(['/c']);
    expect(leftOfActive.goTo).toBe('/c');
  });

  it('closing the only tab goes home', () => {
    const { state, goTo } = closeTabs(stateOf('/a', '/a'), '/a', 'this');
    expect(state.tabs).toEqual([]);
    expect(goTo).toBe('/');
  });

  it('navigates to the remembered full path of the last tab', () => {
    const state: TTabsState = { tabs: [{ key: '/a', path: '/a?page=3', titleKey: 'x' }, tab('/b')], active: '/b' };
    expect(closeTabs(state, '/b', 'this').goTo).toBe('/a?page=3');
  });
});

describe('opening tabs', () => {
  it('/404 and /login never become tabs', () => {
    let state: TTabsState = { tabs: [], active: null };
    state = addTab(state, tab('/404'));
    state = addTab(state, tab('/login'));
    expect(state.tabs).toEqual([]);
    state = addTab(state, tab('/a'));
    state = addTab(state, tab('/b'));
    state = addTab(state, { key: '/a', path: '/a?x=1', titleKey: 't/a' });
    expect(keys(state)).toEqual(['/a', '/b']);
    expect(state.tabs[0].path).toBe('/a?x=1');
    expect(state.active).toBe('/a');
  });
});

describe('the store', () => {
  const navigations: string[] = [];
  beforeEach(() => {
    sessionStorage.clear();
    clearTabs();
    navigations.length = 0;
    registerNavigator((to) => navigations.push(to));
  });
  afterEach(() => registerNavigator(null));

  it('keeps tabs and the active tab in sessionStorage', () => {
    openTab(tab('/a'));
    openTab(tab('/b'));
    openTab(tab('/login'));
    const saved = JSON.parse(sessionStorage.getItem('PROXYHUB_TABS')!).value as TTabsState;
    expect(keys(saved)).toEqual(['/a', '/b']);
    expect(saved.active).toBe('/b');
    reloadTabs();
    expect(keys(getTabsState())).toEqual(['/a', '/b']);
  });

  it('closing the active tab navigates to the last remaining one', () => {
    openTab(tab('/a'));
    openTab(tab('/b'));
    openTab(tab('/c'));
    openTab(tab('/b'));
    expect(closeTab('/b', 'this')).toEqual(['/b']);
    expect(navigations).toEqual(['/c']);
    expect(closeTab('/c', 'left')).toEqual(['/a']);
    expect(navigations).toEqual(['/c']);
  });
});
