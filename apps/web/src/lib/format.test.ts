import { describe, expect, it } from 'vitest';
import {
  bytesIn,
  formatBytes,
  formatBytesTrimmed,
  formatDateTimeMinutes,
  formatDateTimeSeconds,
  formatFen,
  formatFileSize,
  formatLongDate,
  formatMilliseconds,
  formatMonthDay,
  formatSignedYuan,
  formatYuan,
  pickByteUnit,
} from './format';

const KB = 1024;
const MB = 1024 ** 2;
const GB = 1024 ** 3;

describe('bytes', () => {
  it('picks the binary unit that keeps at most four integer digits', () => {
    expect([0, KB - 1, KB, MB - 1, MB, GB - 1, GB, 1024 ** 4, 1024 ** 5].map(pickByteUnit)).toEqual([
      'B',
      'B',
      'KB',
      'KB',
      'MB',
      'MB',
      'GB',
      'TB',
      'TB',
    ]);
    expect(pickByteUnit(-1)).toBe('B');
  });

  it('converts bytes into a unit with two decimals', () => {
    expect(bytesIn(1536, 'KB')).toBe(1.5);
    expect(bytesIn(GB * 1.234567, 'GB')).toBe(1.23);
    expect(bytesIn(512, 'B')).toBe(512);
    expect(bytesIn(0, 'MB')).toBe(0);
  });

  it('writes traffic with two decimals above bytes', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(KB - 1)).toBe('1023 B');
    expect(formatBytes(KB)).toBe('1.00 KB');
    expect(formatBytes(1536)).toBe('1.50 KB');
    expect(formatBytes(GB - MB)).toBe('1023.00 MB');
    expect(formatBytes(GB)).toBe('1.00 GB');
    expect(formatBytes(GB * 1.75)).toBe('1.75 GB');
    expect(formatBytes(1024 ** 4 * 2)).toBe('2.00 TB');
    expect(formatBytes(1024 ** 5)).toBe('1024.00 TB');
  });

  it('writes traffic beside an allowance with up to two decimals, never below zero', () => {
    expect(formatBytesTrimmed(0)).toBe('0 B');
    expect(formatBytesTrimmed(KB - 1)).toBe('1023 B');
    expect(formatBytesTrimmed(KB)).toBe('1 KB');
    expect(formatBytesTrimmed(2150)).toBe('2.1 KB');
    expect(formatBytesTrimmed(GB * 1.5)).toBe('1.5 GB');
    expect(formatBytesTrimmed(GB * 1.234)).toBe('1.23 GB');
    expect(formatBytesTrimmed(-5)).toBe('0 B');
  });

  it('writes a download size with one decimal above bytes', () => {
    expect(formatFileSize(0)).toBe('0 B');
    expect(formatFileSize(KB - 1)).toBe('1023 B');
    expect(formatFileSize(KB)).toBe('1.0 KB');
    expect(formatFileSize(20 * KB)).toBe('20.0 KB');
    expect(formatFileSize(MB * 1.25)).toBe('1.3 MB');
    expect(formatFileSize(5 * GB)).toBe('5.0 GB');
  });
});

describe('money', () => {
  it("is the contract's formatter", () => {
    expect(formatYuan(12.3)).toBe('¥12.30');
    expect(formatYuan(0)).toBe('¥0.00');
    expect(formatYuan(-2.5)).toBe('-¥2.50');
    expect(formatFen(1230)).toBe('¥12.30');
    expect(formatFen(1230, { symbol: false })).toBe('12.30');
  });

  it('signs a movement of money', () => {
    expect(formatSignedYuan(100)).toBe('+¥100.00');
    expect(formatSignedYuan(0.01)).toBe('+¥0.01');
    expect(formatSignedYuan(0)).toBe('¥0.00');
    expect(formatSignedYuan(-0.01)).toBe('-¥0.01');
    expect(formatSignedYuan(-2.5)).toBe('-¥2.50');
  });
});

describe('times', () => {
  // Times without an offset are read in the browser's zone, so the expected text does not depend on where the test runs.
  const at = '2026-05-01T08:09:10';

  it('writes a time to the second', () => {
    expect(formatDateTimeSeconds(at)).toBe('2026-05-01 08:09:10');
    expect(formatDateTimeSeconds('2026-12-31T23:59:59.999')).toBe('2026-12-31 23:59:59');
    expect(formatDateTimeSeconds(new Date(2026, 0, 2, 3, 4, 5).toISOString())).toBe('2026-01-02 03:04:05');
  });

  it('writes a time to the minute', () => {
    expect(formatDateTimeMinutes(at)).toBe('2026-05-01 08:09');
    expect(formatDateTimeMinutes('2026-12-31T23:59:59.999')).toBe('2026-12-31 23:59');
    expect(formatDateTimeMinutes(new Date(2026, 0, 2, 3, 4, 5).toISOString())).toBe('2026-01-02 03:04');
  });

  it('writes a placeholder for a missing time', () => {
    for (const format of [formatDateTimeSeconds, formatDateTimeMinutes]) {
      expect(format(null)).toBe('—');
      expect(format(undefined)).toBe('—');
      expect(format('')).toBe('—');
    }
  });

  it("writes a day out in the console's language", () => {
    expect(formatLongDate(at, 'zh')).toBe('2026/5/1');
    expect(formatLongDate(at, 'en')).toBe('5/1/2026');
    expect(formatLongDate('2026-12-31T23:59:59', 'en')).toBe('12/31/2026');
  });

  it('writes the month and day of a day or a time', () => {
    expect(formatMonthDay('2026-05-01')).toBe('05-01');
    expect(formatMonthDay('2026-12-31')).toBe('12-31');
    expect(formatMonthDay(at)).toBe('05-01');
  });
});

describe('durations', () => {
  it('writes milliseconds', () => {
    expect(formatMilliseconds(0)).toBe('0 ms');
    expect(formatMilliseconds(1234)).toBe('1234 ms');
  });
});
