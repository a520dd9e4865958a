import { describe, expect, it } from 'vitest';
import { createCredentialLookup, isLookupName } from './credential-lookup';

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

  it('refuses names the database cannot hold without a look, and looks the others up', async () => {
    const queries: string[][] = [];
    const lookup = createCredentialLookup({ load: async (names) => void queries.push(names) });
    const bad = ['a\0b', '\0', 'x\ufffd', 'lone\ud800', 'tab\there', 'del\u007f', ''];
    const answers = await Promise.all([...bad, 'ufresh', 'ok\ud83d\ude00'].map((name) => lookup.request(name)));
    expect(answers).toEqual([...bad.map(() => false), true, true]);
    expect(queries).toEqual([['ufresh', 'ok\ud83d\ude00']]);
    expect(bad.some(isLookupName)).toBe(false);
  });

  it('sets a name the database refuses apart: the others asked with it are still looked up', async () => {
    const loaded = new Set<string>();
    const errors: unknown[] = [];
    // As PostgreSQL answers a value it cannot take (SQLSTATE 22021), failing the whole query.
    const refuse = (name: string) => name.startsWith('poison');
    const lookup = createCredentialLookup({
      onError: (e) => errors.push(e),
      load: async (names) => {
        if (names.some(refuse))
          throw Object.assign(new Error('invalid byte sequence for encoding "UTF8"'), { code: '22021' });
        for (const name of names) loaded.add(name);
      },
    });
    const names = Array.from({ length: 200 }, (_, i) => (i === 37 || i === 150 ? `poison${i}` : `fresh${i}`));
    expect(await Promise.all(names.map((name) => lookup.request(name)))).toEqual(names.map(() => true));
    expect([...loaded].sort()).toEqual(names.filter((n) => !refuse(n)).sort());
    expect(errors).toHaveLength(1);
    // Two names set apart cost a few queries each (halving), not one per name.
    expect(lookup.queries()).toBeLessThan(40);
  });
});
