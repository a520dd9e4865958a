import { useCallback, useState } from 'react';
import { readValue, writeRecord } from '../../../lib/storage';
import type { TScreenKey } from '../utils/screens';

/** Columns of a proxy list, in their order. */
export const PROXY_COLUMN_KEYS = [
  'remark',
  'type',
  'network',
  'area',
  'usage',
  'createdAt',
  'expiresAt',
  'status',
  'autoRenew',
  'credentials',
  'actions',
] as const;
/** One column of a proxy list. */
export type TProxyColumnKey = (typeof PROXY_COLUMN_KEYS)[number];

/** Columns that are always shown: the credentials and the row actions. */
export const KEY_COLUMNS: readonly TProxyColumnKey[] = ['credentials', 'actions'];
/** Columns hidden until the user shows them, so the rest fits a laptop screen without scrolling. */
export const DEFAULT_HIDDEN_COLUMNS: readonly TProxyColumnKey[] = ['usage', 'createdAt'];

/** Storage name of a screen's hidden columns (localStorage, with the console's prefix). */
export function hiddenColumnsStorageName(screen: TScreenKey): string {
  return `PROXY_COLUMNS_${screen}`;
}

function isColumnKey(value: unknown): value is TProxyColumnKey {
  return typeof value === 'string' && (PROXY_COLUMN_KEYS as readonly string[]).includes(value);
}

/** The hidden columns a screen remembers; the defaults when nothing (or nothing readable) is stored. */
function readHidden(screen: TScreenKey): TProxyColumnKey[] {
  const stored = readValue<unknown>('local', hiddenColumnsStorageName(screen));
  if (!Array.isArray(stored)) return [...DEFAULT_HIDDEN_COLUMNS];
  return stored.filter(isColumnKey).filter((key) => !KEY_COLUMNS.includes(key));
}

/**
 * Which columns of a proxy list are shown, remembered per screen in
 * localStorage. The hidden ones are stored, so a column added later shows.
 */
export function useColumnChoice(screen: TScreenKey) {
  const [hidden, setHiddenState] = useState<TProxyColumnKey[]>(() => readHidden(screen));
  const [shownScreen, setShownScreen] = useState(screen);
  // Another screen (same component, new route): read its own choice.
  if (shownScreen !== screen) {
    setShownScreen(screen);
    setHiddenState(readHidden(screen));
  }

  const setVisible = useCallback(
    (visible: TProxyColumnKey[]) => {
      const next = PROXY_COLUMN_KEYS.filter((key) => !visible.includes(key) && !KEY_COLUMNS.includes(key));
      setHiddenState(next);
      writeRecord('local', hiddenColumnsStorageName(screen), next);
    },
    [screen],
  );

  const visible = PROXY_COLUMN_KEYS.filter((key) => !hidden.includes(key));
  return { visible, setVisible };
}
