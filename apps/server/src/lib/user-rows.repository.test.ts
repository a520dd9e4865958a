import { describe, expect, it } from 'vitest';
import { totalOfPage } from './user-rows.repository';

describe('totalOfPage', () => {
  const counted = (n: number) => {
    const calls: number[] = [];
    return { calls, count: async () => (calls.push(n), n) };
  };

  it('takes the total from a last page shorter than the limit, without counting', async () => {
    const c = counted(999);
    expect(await totalOfPage({ limit: 20, offset: 0 }, 7, c.count)).toBe(7);
    expect(await totalOfPage({ limit: 20, offset: 40 }, 3, c.count)).toBe(43);
    expect(await totalOfPage({ limit: 20, offset: 0 }, 0, c.count)).toBe(0);
    expect(c.calls).toEqual([]);
  });

  it('counts when the page is full or lies past the end', async () => {
    const c = counted(57);
    expect(await totalOfPage({ limit: 20, offset: 0 }, 20, c.count)).toBe(57);
    expect(await totalOfPage({ limit: 20, offset: 100 }, 0, c.count)).toBe(57);
    expect(c.calls).toHaveLength(2);
  });

  it('takes the total a full page carries from its own statement, and counts past the end', async () => {
    const c = counted(57);
    const full = Array.from({ length: 20 }, () => ({ pageTotal: 311 }));
    expect(await totalOfPage({ limit: 20, offset: 0 }, full, c.count)).toBe(311);
    expect(await totalOfPage({ limit: 20, offset: 0 }, full.slice(0, 5), c.count)).toBe(5);
    expect(c.calls).toEqual([]);
    expect(await totalOfPage({ limit: 20, offset: 400 }, [], c.count)).toBe(57);
    expect(c.calls).toHaveLength(1);
  });
});
