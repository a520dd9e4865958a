import { useEffect } from 'react';
import NProgress from 'nprogress';
import 'nprogress/nprogress.css';
import { Outlet, useLocation, useNavigation } from 'react-router';
import { LOADING_BAR_END_DELAY_MS, PRODUCT_NAME } from '@proxy/contract/light';
import { showPendingSessionMessage } from '../lib/api-client';

// The default template marks the bar with role="bar", which is no ARIA role; the bar is decoration.
NProgress.configure({
  showSpinner: false,
  barSelector: '.bar',
  template: '<div class="bar" aria-hidden="true"><div class="peg"></div></div>',
});

/**
 * The root of every page: runs the top loading bar while a navigation loads
 * (finishing 200 ms after it) and sets the fixed page title (spec section 2).
 */
export function RootShell() {
  const navigation = useNavigation();
  const location = useLocation();

  useEffect(() => {
    if (navigation.state !== 'idle') {
      NProgress.start();
      return;
    }
    const timer = setTimeout(() => NProgress.done(), LOADING_BAR_END_DELAY_MS);
    return () => clearTimeout(timer);
  }, [navigation.state]);

  useEffect(() => {
    document.title = PRODUCT_NAME;
  }, [location.key]);

  // The message of a revoked session (-401), told before the page load to /login.
  useEffect(() => showPendingSessionMessage(), []);

  return <Outlet />;
}
