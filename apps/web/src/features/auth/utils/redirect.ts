/**
 * The in-app path to open after sign-in: the `redirect` query when it is a
 * path of this console, else "/". Absolute or protocol-relative URLs are
 * ignored so a crafted link cannot send a fresh session elsewhere.
 */
export function getSafeRedirect(search: string | URLSearchParams): string {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const target = params.get('redirect');
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return '/';
  // Never bounce back into the sign-in screens.
  if (/^\/(login|register|reset-password|oauth\/)/.test(target)) return '/';
  return target;
}
