/**
 * Toasts without antd, for the pages that load no antd (the sign-in pages):
 * the same place, look and timing as antd's message (top centre, icon and
 * text, a key replaces the toast in place), announced politely to screen
 * readers. lib/message uses them until antd's themed APIs are handed over.
 */

export type TLightToastType = 'success' | 'error' | 'info' | 'warning' | 'loading';

const timers = new Map<string, ReturnType<typeof setTimeout>>();

function container(): HTMLElement {
  let box = document.querySelector<HTMLElement>('.light-toasts');
  if (!box) {
    box = document.createElement('div');
    box.className = 'light-toasts';
    box.setAttribute('aria-live', 'polite');
    document.body.appendChild(box);
  }
  return box;
}

function findToast(key: string): HTMLElement | null {
  for (const el of document.querySelectorAll<HTMLElement>('.light-toast')) if (el.dataset.key === key) return el;
  return null;
}

/** Shows (or replaces, by key) a toast; a duration of 0 keeps it until replaced or closed. */
export function openLightToast(options: {
  type: TLightToastType;
  content: string;
  key: string;
  durationMs: number;
}): void {
  if (typeof document === 'undefined') return;
  const toast = findToast(options.key) ?? document.createElement('div');
  toast.className = `light-toast light-toast-${options.type}`;
  toast.dataset.key = options.key;
  toast.replaceChildren();
  const icon = document.createElement('span');
  icon.className = 'light-toast-icon';
  // The sign comes from global.css (::before), so the toast's text is the message alone.
  icon.setAttribute('aria-hidden', 'true');
  const text = document.createElement('span');
  text.textContent = options.content;
  toast.append(icon, text);
  if (!toast.isConnected) container().appendChild(toast);
  clearTimeout(timers.get(options.key));
  timers.delete(options.key);
  if (options.durationMs > 0)
    timers.set(
      options.key,
      setTimeout(() => closeLightToast(options.key), options.durationMs),
    );
}

/** Closes the toast of a key, if shown. */
export function closeLightToast(key: string): void {
  clearTimeout(timers.get(key));
  timers.delete(key);
  // A toast's timer may fire once its page is gone (a test environment torn down): nothing is left to close.
  if (typeof document === 'undefined') return;
  findToast(key)?.remove();
}
