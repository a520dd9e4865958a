import type { TProxyToken } from '@proxy/contract';

/** A token as the API answers it, with overrides. */
export function makeToken(overrides: Partial<TProxyToken> & { token_id: number }): TProxyToken {
  const id = overrides.token_id;
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
    username: `user${id}`,
    password: `secret-pass-${id}`,
    proxy_url: `http://user${id}:secret-pass-${id}@127.0.0.1:7777`,
    ...overrides,
  };
}

/** The signed-in user of the tests (balance in yuan). */
export function makeUser(balance: number) {
  return {
    user_id: 7,
    name: 'alice',
    balance,
    frozen_balance: 0,
    status: 'active',
    total_balance: 0,
    email: 'alice@example.com',
    token: 'pk_test',
    avatar: '',
    invite_code: 'INV7',
    trial_credit: 15,
    is_admin: false,
    created_at: '2026-01-01T00:00:00.000Z',
  };
}
