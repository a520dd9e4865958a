import { ProxyScreen } from './proxy-screen';

/** Dynamic residential proxies (/proxy/isp/variable). */
export default function Page() {
  return <ProxyScreen screenKey="dynamic" />;
}
