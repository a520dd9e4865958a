/**
 * Browser storage with one fixed upper-case key prefix (spec section 9), so
 * every key the console writes is recognisable and can be cleared together.
 */

/** Prefix of every key the console writes to localStorage or sessionStorage. */
export const STORAGE_PREFIX = 'PROXYHUB_';

/** Which browser store to use: "local" survives browser restarts, "session" does not. */
export type TStoreKind = 'local' | 'session';

/** A stored value with the time it was written (ms) and its lifetime in seconds (spec section 3). */
export type TStoredRecord<T> = { value: T; time: number; expire: number | null };

function pickStore(kind: TStoreKind): Storage | null {
  try {
    return kind === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    // Storage can be disabled (privacy mode, sandboxed frames): behave as empty.
    return null;
  }
}

/** The full storage key for a short name, e.g. "TOKEN" -> "PROXYHUB_TOKEN". */
export function prefixedKey(name: string): string {
  return `${STORAGE_PREFIX}${name.toUpperCase()}`;
}

/** Writes a value as `{ value, time, expire }`; `expireS` null means it never expires. */
export function writeRecord<T>(
  kind: TStoreKind,
  name: string,
  value: T,
  expireS: number | null = null,
  now = Date.now(),
): void {
  const record: TStoredRecord<T> = { value, time: now, expire: expireS };
  pickStore(kind)?.setItem(prefixedKey(name), JSON.stringify(record));
}

/** Reads a record; an expired or unreadable one is removed and reads as null. */
export function readRecord<T>(kind: TStoreKind, name: string, now = Date.now()): TStoredRecord<T> | null {
  const store = pickStore(kind);
  const raw = store?.getItem(prefixedKey(name));
  if (!store || raw == null) return null;
  try {
    const record = JSON.parse(raw) as TStoredRecord<T>;
    if (typeof record !== 'object' || record === null || !('value' in record) || typeof record.time !== 'number') {
      throw new Error('not a record');
    }
    if (record.expire != null && now - record.time >= record.expire * 1000) {
      store.removeItem(prefixedKey(name));
      return null;
    }
    return record;
  } catch {
    store.removeItem(prefixedKey(name));
    return null;
  }
}

/** The value of a record, or null when missing or expired. */
export function readValue<T>(kind: TStoreKind, name: string): T | null {
  return readRecord<T>(kind, name)?.value ?? null;
}

/** Removes a key from one store. */
export function removeRecord(kind: TStoreKind, name: string): void {
  pickStore(kind)?.removeItem(prefixedKey(name));
}
