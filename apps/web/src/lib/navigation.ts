/**
 * Navigation from outside React (the request layer, logout). The router
 * registers itself here; until it does, a full page load is used.
 */

/** Client-side navigation function (React Router's `router.navigate`). */
export type TNavigate = (to: string, options?: { replace?: boolean }) => void;

let softNavigate: TNavigate | null = null;
/** A full page load; `replace` leaves no history entry behind (a page that only leads elsewhere). */
export type THardNavigate = (url: string, options?: { replace?: boolean }) => void;

let hardNavigateImpl: THardNavigate = (url, options) =>
  options?.replace ? window.location.replace(url) : window.location.assign(url);

/** Called by the app router once created (and with null when it is disposed). */
export function registerNavigator(navigate: TNavigate | null): void {
  softNavigate = navigate;
}

/** Navigates inside the single-page app when a router exists, else by a page load. */
export function navigateTo(to: string, options?: { replace?: boolean }): void {
  if (softNavigate) softNavigate(to, options);
  else hardNavigateImpl(to);
}

/** Full page load (spec section 8: body code -401 "hard-navigates" to /login). */
export function hardNavigate(url: string, options?: { replace?: boolean }): void {
  hardNavigateImpl(url, options);
}

/**
 * Replaces the page-load function. jsdom cannot load pages, so tests record
 * the target instead; the app never calls this.
 */
export function setHardNavigate(impl: THardNavigate): void {
  hardNavigateImpl = impl;
}

/** Current path with search, e.g. "/proxy/isp/static?page=2". */
export function currentFullPath(): string {
  return `${window.location.pathname}${window.location.search}`;
}
