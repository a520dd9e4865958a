import { ProxyScreen } from './proxy-screen';

/** Static residential proxies (/proxy/isp/static). */
export default function Page() {
  return <ProxyScreen screenKey="static" />;
}
