import type { TArea, TPage, TProxyToken, TSiteSettings, TUserInfo } from '@proxy/contract';

/** The signed-in user of the tests (money in yuan), with overrides. */
export function makeUser(overrides: Partial<TUserInfo> = {}): TUserInfo {
  return {
    user_id: 7,
    name: 'alice',
    balance: 15,
    frozen_balance: 0,
    status: 'active',
    total_balance: 15,
    email: 'alice@example.com',
    token: 'pk_test',
    avatar: '',
    invite_code: 'INV7',
    trial_credit: 15,
    is_admin: false,
    password_change_required: false,
    created_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** A proxy as the lists answer it (a static residential IP proxy unless told), with overrides. */
export function makeToken(overrides: Partial<TProxyToken> & { token_id: number }): TProxyToken {
  const id = overrides.token_id;
  const username = overrides.username ?? `user${id}`;
  const password = overrides.password ?? `secret-pass-${id}`;
  return {
    remark: '',
    product: 'static',
    category: 'isp',
    type: 'ip',
    network: 'HTTP',
    area: { country: 'us', state: '', city: '', country_name: 'United States', state_name: '', city_name: '' },
    usage: { used_bytes: 0, limit_bytes: null },
    created_at: '2026-01-01T00:00:00.000Z',
    expires_at: '2026-01-02T00:00:00.000Z',
    status: 'enabled',
    auto_renew: false,
    host: '127.0.0.1',
    port: 7777,
    username,
    password,
    proxy_url: `http://${username}:${password}@127.0.0.1:7777`,
    ...overrides,
  };
}

/** An area of the area lists (names in both languages, available exits). */
export function makeArea(id: string, nameEn: string, nameZh: string, available: number): TArea {
  return { id, name: nameEn, name_zh: nameZh, name_en: nameEn, available };
}

/** One page holding all the records. */
export function pageOf<T>(records: T[], pageSize = 10): TPage<T> {
  return { records, total: records.length, page: 1, page_size: pageSize };
}

/** The console's run-time settings (GET /site/settings): no help center, the spec's marketing figures. */
export function makeSiteSettings(overrides: Partial<TSiteSettings> = {}): TSiteSettings {
  return { help_center_url: null, claims: { residential_ips: '32M+', countries: 195, uptime: '99.9%' }, ...overrides };
}
