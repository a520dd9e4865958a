import { describe, expect, it } from 'vitest';
import { loadServerConfig } from '../../config/env';
import { ARGON2_PRODUCTION, argon2ParamsOf, hashPassword, verifyDummyPassword, verifyPassword } from './password';

describe('passwords (argon2id)', () => {
  it('uses the production parameters by default: memoryCost 19456 KiB, timeCost 2, parallelism 1', async () => {
    expect(ARGON2_PRODUCTION).toEqual({ memoryKib: 19456, timeCost: 2 });
    const config = loadServerConfig({ JWT_SECRET: 'x'.repeat(40), DATA_DIR: '/tmp/unused-data-dir' });
    expect(argon2ParamsOf(config)).toEqual(ARGON2_PRODUCTION);
    const encoded = await hashPassword('correct horse battery', argon2ParamsOf(config));
    expect(encoded).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(encoded, 'correct horse battery')).toBe(true);
  });

  it('verifies only the right password, salts every hash and treats a malformed hash as no match', async () => {
    const params = { memoryKib: 1024, timeCost: 1 };
    const a = await hashPassword('password-one', params);
    const b = await hashPassword('password-one', params);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    expect(await verifyPassword(a, 'password-one')).toBe(true);
    expect(await verifyPassword(a, 'password-two')).toBe(false);
    expect(await verifyPassword('not a hash', 'password-one')).toBe(false);
    expect(await verifyDummyPassword('password-one', params)).toBe(false);
  });
});
