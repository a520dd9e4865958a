import { describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_TTL_S } from '@proxy/contract';
import { createJwt } from './jwt';

const SECRET = 'jwt-test-secret-jwt-test-secret-0123456789';

describe('access tokens', () => {
  it('a token verified before is refused once it expires (the remembered verification keeps the expiry)', async () => {
    let now = new Date('2026-11-23T10:00:00Z');
    const jwt = createJwt(SECRET, () => now);
    const token = await jwt.sign({ userId: 7, tokenVersion: 2, sessionId: 9 });
    expect(await jwt.verify(token)).toMatchObject({ userId: 7, tokenVersion: 2, sessionId: 9 });
    expect(await jwt.verify(token)).toMatchObject({ userId: 7, tokenVersion: 2, sessionId: 9 });
    now = new Date(now.getTime() + (ACCESS_TOKEN_TTL_S - 1) * 1000);
    expect(await jwt.verify(token)).not.toBeNull();
    now = new Date(now.getTime() + 1000);
    expect(await jwt.verify(token)).toBeNull();
  });

  it('a token changed by one character, or signed with another secret, is refused even after the genuine one was verified', async () => {
    const now = () => new Date('2026-11-23T10:00:00Z');
    const jwt = createJwt(SECRET, now);
    const token = await jwt.sign({ userId: 7, tokenVersion: 0, sessionId: 1 });
    expect(await jwt.verify(token)).not.toBeNull();
    // A character inside the signature (the last one also holds padding bits).
    const at = token.lastIndexOf('.') + 5;
    const forged = token.slice(0, at) + (token[at] === 'A' ? 'B' : 'A') + token.slice(at + 1);
    expect(await jwt.verify(forged)).toBeNull();
    expect(await createJwt(`${SECRET}-other`, now).verify(token)).toBeNull();
  });
});
