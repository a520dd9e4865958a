import { describe, expect, it } from 'vitest';
import { socksReplyReason } from './proxy-test.service';

// Tests through a real gateway live in apps/launcher/src/real-path/proxy-test.test.ts.
describe('SOCKS5 reply codes as refusal reasons', () => {
  const now = new Date('2026-05-01T00:00:00Z');
  const live = {
    status: 'enabled' as const,
    deletedAt: null,
    expiresAt: new Date('2026-06-01T00:00:00Z'),
    trafficLimitBytes: null,
    trafficUsedBytes: 0,
  };
  it('refines "not allowed" (0x02) from the token state and maps the other codes', () => {
    expect(socksReplyReason(2, { ...live, status: 'disabled' }, now)).toBe('token-disabled');
    expect(socksReplyReason(2, { ...live, deletedAt: now }, now)).toBe('token-disabled');
    expect(socksReplyReason(2, { ...live, expiresAt: now }, now)).toBe('token-expired');
    expect(socksReplyReason(2, { ...live, trafficLimitBytes: 10, trafficUsedBytes: 10 }, now)).toBe('token-exhausted');
    expect(socksReplyReason(2, live, now)).toBe('not-allowed');
    expect(socksReplyReason(3, live, now)).toBe('no-exit');
    expect(socksReplyReason(4, live, now)).toBe('upstream-failed');
    expect(socksReplyReason(5, live, now)).toBe('upstream-failed');
    expect(socksReplyReason(1, live, now)).toBe('bad-request');
  });
});
