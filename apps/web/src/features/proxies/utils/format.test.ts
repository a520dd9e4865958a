import { describe, expect, it } from 'vitest';
import { formatBytesTrimmed as formatBytes } from '../../../lib/format';
import { formatAllowance, maskSecret, usagePercent } from './format';

describe('proxy formatting', () => {
  it('shows usage in binary units and the allowance in the GB that were bought', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(2150)).toBe('2.1 KB');
    expect(formatBytes(1024 ** 3 * 1.5)).toBe('1.5 GB');
    expect(formatAllowance(107374182)).toBe('0.1 GB'); // 0.1 GB as the server counts it
    expect(formatAllowance(1024 ** 3 * 60)).toBe('60 GB');
  });

  it('computes the used share of traffic products only', () => {
    expect(usagePercent({ used_bytes: 50, limit_bytes: 200 })).toBe(25);
    expect(usagePercent({ used_bytes: 500, limit_bytes: 200 })).toBe(100);
    expect(usagePercent({ used_bytes: 500, limit_bytes: null })).toBeNull();
  });

  it('masks a password without revealing any of it', () => {
    expect(maskSecret('QxD9dgihPNNGz0cV')).toBe('•'.repeat(12));
    expect(maskSecret('abc')).not.toContain('a');
  });
});
