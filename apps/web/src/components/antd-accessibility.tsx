import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** The boxes antd tables scroll in (sideways with scroll.x, downwards with scroll.y). */
const SCROLL_BOX_SELECTOR = '.ant-table-content, .ant-table-body';
/** Marks a scroll box this module has made reachable (its value is the name given). */
const REGION_MARK = 'data-scroll-region';

/** The name of a table's scroll box: the title of the card (or named section) around it, else the generic "Table". */
function regionName(box: Element, fallback: string, named: (title: string) => string): string {
  const title = box
    .closest('.ant-card')
    ?.querySelector(':scope > .ant-card-head .ant-card-head-title')
    ?.textContent?.trim();
  const name = title || box.closest('section[aria-label]')?.getAttribute('aria-label');
  return name ? named(name) : fallback;
}

/**
 * Wide tables: keyboard users scroll hidden columns into view too (WCAG
 * 2.1.1), so each scroll box is in the tab order as a named region. The
 * hidden row antd measures column widths with (a height-0 copy of the
 * headers, aria-hidden) is made inert: a checkbox or link copied into it
 * would be an invisible Tab stop.
 */
function fixTables(fallback: string, named: (title: string) => string): void {
  for (const box of document.querySelectorAll<HTMLElement>(SCROLL_BOX_SELECTOR)) {
    const name = regionName(box, fallback, named);
    if (box.getAttribute(REGION_MARK) === name) continue;
    box.setAttribute(REGION_MARK, name);
    box.tabIndex = 0;
    box.setAttribute('role', 'region');
    box.setAttribute('aria-label', name);
  }
  for (const row of document.querySelectorAll<HTMLElement>('.ant-table-measure-row:not([inert])')) row.inert = true;
}

/**
 * Tab bars: antd puts role="tablist" on the whole bar, so its "more tabs"
 * button and extra content (buttons) sit inside the tab list, where only tabs
 * belong. The role moves to the row of tabs. A closable tab's × stays for the
 * mouse but leaves the accessibility tree and the tab order: the keyboard
 * closes the focused tab with Delete (antd's tab list handles it) and the
 * console's tab bar has a menu to close tabs.
 */
function fixTabBars(): void {
  for (const nav of document.querySelectorAll<HTMLElement>('.ant-tabs-nav[role="tablist"]')) {
    const list = nav.querySelector<HTMLElement>(':scope > .ant-tabs-nav-wrap > .ant-tabs-nav-list');
    if (!list) continue;
    list.setAttribute('role', 'tablist');
    list.setAttribute('aria-orientation', nav.getAttribute('aria-orientation') ?? 'horizontal');
    nav.removeAttribute('role');
    nav.removeAttribute('aria-orientation');
  }
  for (const remove of document.querySelectorAll<HTMLElement>('.ant-tabs-nav-list .ant-tabs-tab-remove')) {
    if (remove.getAttribute('aria-hidden') !== 'true') remove.setAttribute('aria-hidden', 'true');
    if (remove.tabIndex !== -1) remove.tabIndex = -1;
  }
}

/**
 * Repairs of antd's markup the components offer no prop for, applied to
 * whatever any screen renders (one observer for the whole console instead of
 * a wrapper around each table or tab bar); names follow the language.
 */
export function AntdAccessibility() {
  const { t, i18n } = useTranslation('common');
  useEffect(() => {
    const fallback = t('table.region');
    const named = (title: string) => t('table.regionOf', { title });
    let frame = 0;
    const fix = () => {
      frame = 0;
      fixTables(fallback, named);
      fixTabBars();
    };
    fix();
    const observer = new MutationObserver(() => {
      frame ||= requestAnimationFrame(fix);
    });
    // tabindex too: antd gives the × of a tab that becomes active tabIndex 0 again.
    observer.observe(document.body, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ['tabindex', 'role'],
    });
    return () => {
      observer.disconnect();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [t, i18n.language]);
  return null;
}
