import { ProxyScreen } from './proxy-screen';

/** Data-center proxies, static only (/proxy/idc/list). */
export default function Page() {
  return <ProxyScreen screenKey="idc" />;
}
