import { describe, expect, it } from 'vitest';
import { createCredentialLookup } from './credential-lookup';

describe('credential lookup', () => {
  it('looks 1,000 names asked together up in two queries of at most 500', async () => {
    const queries: string[][] = [];
    const lookup = createCredentialLookup({ load: async (names) => void queries.push(names) });
    const answers = await Promise.all(Array.from({ length: 1000 }, (_, i) => lookup.request(`nobody${i}`)));
    expect(answers.every(Boolean)).toBe(true);
    expect(queries.map((q) => q.length)).toEqual([500, 500]);
    expect(lookup.queries()).toBe(2);
  });

  it('runs one query at a time: names asked while one runs go together in the next, which starts after they were asked', async () => {
    const started: string[][] = [];
    let release: () => void = () => {};
    const lookup = createCredentialLookup({
      minGapMs: 0,
      load: (names) => {
        started.push(names);
        return new Promise<void>((resolve) => (release = resolve));
      },
    });
    const first = lookup.request('a');
    await expect.poll(() => started.length).toBe(1);
    const later = [lookup.request('b'), lookup.request('c'), lookup.request('b')];
    // Nothing more starts while the first query runs.
    expect(started).toEqual([['a']]);
    release();
    await first;
    await expect.poll(() => started.length).toBe(2);
    expect(started[1]).toEqual(['b', 'c']);
    release();
    expect(await Promise.all(later)).toEqual([true, true, true]);
  });

  it('refuses without a look beyond the waiting bound, and survives a failing query', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const lookup = createCredentialLookup({
      maxWaiting: 2,
      onError: (e) => errors.push(e),
      load: async () => {
        calls += 1;
        throw new Error('database down');
      },
    });
    const answers = await Promise.all([lookup.request('a'), lookup.request('b'), lookup.request('c')]);
    expect(answers).toEqual([true, true, false]);
    expect(calls).toBe(1);
    expect(errors).toHaveLength(1);
  });
});
