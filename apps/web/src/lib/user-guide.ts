import { useSyncExternalStore } from 'react';
import { currentFullPath, hardNavigate } from './navigation';
import { readValue, removeRecord, writeRecord } from './storage';

/**
 * The guided tour's local flag (spec sections 3 and 4: userGuideCompleted)
 * and the request to open it from the header. Kept here because the tour,
 * the header and the user centre's "reset the user guide" all use it.
 */

/** Storage name of the flag (stored as PROXYHUB_USER_GUIDE_COMPLETED). */
export const USER_GUIDE_COMPLETED_KEY = 'USER_GUIDE_COMPLETED';

/** True once the user finished (or closed) the tour in this browser. */
export function isUserGuideCompleted(): boolean {
  return readValue<boolean>('local', USER_GUIDE_COMPLETED_KEY) === true;
}

/** Stores userGuideCompleted (finishing, or advancing past the last step). */
export function markUserGuideCompleted(): void {
  writeRecord('local', USER_GUIDE_COMPLETED_KEY, true);
}

/** Clears the flag and reloads the page, so the tour starts again (spec section 2). */
export function resetUserGuide(): void {
  removeRecord('local', USER_GUIDE_COMPLETED_KEY);
  hardNavigate(currentFullPath(), { replace: true });
}

const listeners = new Set<() => void>();
let requests = 0;

/** Asks the tour to open at its first step (the header's button). */
export function requestUserGuide(): void {
  requests += 1;
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** How many times the tour was asked for; changes on every request. */
export function useUserGuideRequests(): number {
  return useSyncExternalStore(
    subscribe,
    () => requests,
    () => requests,
  );
}
