import { describe, expect, it } from 'vitest';
import { rankCandidates, rankExits, rotationWindow, type TRankedCandidate } from './rotation';

const NOW = Date.UTC(2026, 10, 28, 12, 0, 0);
const c = (key: string, priority = 10, weight = 100): TRankedCandidate => ({
  key,
  priority,
  weight,
  isSelfRotating: key.startsWith('p'),
});

describe('exit choice over exits and pools', () => {
  it('is the same for the same token, session and window, whatever the order of the candidates', () => {
    const candidates = [c('e1'), c('e2'), c('p1'), c('p2')];
    for (let token = 1; token <= 50; token++) {
      const a = rankCandidates({ tokenId: token, session: 's', now: NOW, candidates }).map((x) => x.key);
      const b = rankCandidates({ tokenId: token, session: 's', now: NOW, candidates: [...candidates].reverse() });
      expect(b.map((x) => x.key)).toEqual(a);
      expect([...a].sort()).toEqual(['e1', 'e2', 'p1', 'p2']);
    }
  });

  it('never chooses an exit in consecutive windows when its priority has another candidate', () => {
    for (const keys of [
      ['e1', 'e2'],
      ['e1', 'e2', 'e3'],
      ['e1', 'p1'],
      ['e1', 'e2', 'p1'],
      ['e1', 'e2', 'p1', 'p2', 'p3'],
    ]) {
      const candidates = keys.map((k) => c(k, 10, k.startsWith('p') ? 300 : 100));
      for (let token = 1; token <= 40; token++) {
        let t = NOW;
        let last = '';
        for (let w = 0; w < 12; w++) {
          const chosen = rankCandidates({ tokenId: token, now: t, candidates })[0].key;
          // A pool may repeat: a new pool session each window changes its exit by itself.
          if (chosen.startsWith('e')) expect(chosen).not.toBe(last);
          last = chosen;
          t = rotationWindow({ tokenId: token, now: t }).endsAt + 1;
        }
      }
    }
  });

  it('tries lower priorities first, and shares a priority by weight', () => {
    const candidates = [c('e1', 10, 100), c('p1', 5, 100), c('p2', 20, 100), c('p3', 5, 300)];
    const first: Record<string, number> = {};
    for (let s = 0; s < 4000; s++) {
      const ranked = rankCandidates({ tokenId: 7, session: `s${s}`, now: NOW, candidates }).map((x) => x.key);
      // Priority 5 first, then the exit (10), then priority 20.
      expect([...ranked.slice(0, 2)].sort()).toEqual(['p1', 'p3']);
      expect(ranked.slice(2)).toEqual(['e1', 'p2']);
      first[ranked[0]] = (first[ranked[0]] ?? 0) + 1;
    }
    // Weight 300 against 100 among pools: three sessions in four.
    expect(first.p3 / 4000).toBeGreaterThan(0.72);
    expect(first.p3 / 4000).toBeLessThan(0.78);
  });

  it('keeps rankExits: every exit id, the same order every time', () => {
    const ranked = rankExits({ tokenId: 3, session: 'x', candidates: [5, 9, 2], now: NOW });
    expect([...ranked].sort()).toEqual([2, 5, 9]);
    expect(rankExits({ tokenId: 3, session: 'x', candidates: [9, 2, 5], now: NOW })).toEqual(ranked);
  });
});
