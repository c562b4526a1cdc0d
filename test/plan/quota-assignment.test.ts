/**
 * assignQuota: each token's requests left go to one group of codes each, never counted toward two.
 * Against a brute force over every placement of small cases: the most served is what it serves.
 */
import { describe, expect, it } from 'vitest';
import { assignQuota, type GroupDemand } from '../../src/plan/quota-assignment.js';
import { seededRandom } from '../../src/api/index.js';

/** The most requests any placement serves today, by trying every split of every token's quota. */
function bruteMost(groups: readonly GroupDemand[], left: readonly number[]): number {
  let best = 0;
  const need = groups.map((g) => g.requests);
  const walk = (t: number, served: number) => {
    if (t === left.length) {
      best = Math.max(best, served);
      return;
    }
    const covering = groups.map((g, i) => (g.tokens.includes(t) ? i : -1)).filter((i) => i >= 0);
    const split = (k: number, room: number, got: number) => {
      if (k === covering.length) return walk(t + 1, served + got);
      const g = covering[k]!;
      for (let x = 0; x <= Math.min(room, need[g]!); x++) {
        need[g]! -= x;
        split(k + 1, room - x, got + x);
        need[g]! += x;
      }
    };
    split(0, left[t]!, 0);
  };
  walk(0, 0);
  return best;
}

describe('assignQuota', () => {
  it('a professional token beside all-us and all-hk ones counts once: .US and crypto together exceed it', () => {
    // Tokens: 0 all-us (1 left), 1 all-hk (100), 2 professional (2). Groups: .US {0,2}, crypto {2}, .HK {1,2}.
    const groups = [
      { requests: 2, tokens: [0, 2] },
      { requests: 2, tokens: [2] },
      { requests: 1, tokens: [1, 2] },
    ];
    // Per group, the tokens' sums were 3, 2 and 102: each "fits".
    const a = assignQuota(groups, [1, 100, 2]);
    // Which .US or .HK request waits may differ; that one does, and where, may not.
    expect(a.served.reduce((s, x) => s + x, 0)).toBe(4);
    expect(a.unserved).toBe(1);
    expect(a.short).toEqual({ groups: [0, 1], tokens: [0, 2], requests: 4, remaining: 3 });
  });

  it('a share given early moves when a group only that token covers needs it', () => {
    // The first group fills token 1 too; the second, covered by token 1 alone, takes it back.
    const a = assignQuota(
      [
        { requests: 3, tokens: [0, 1] },
        { requests: 2, tokens: [1] },
      ],
      [2, 3],
    );
    expect(a.served).toEqual([3, 2]);
    expect(a.unserved).toBe(0);
    expect(a.short).toBeUndefined();
  });

  it('no daily cap (Infinity) is never short', () => {
    expect(assignQuota([{ requests: 1e6, tokens: [0, 1] }, { requests: 5, tokens: [1] }], [0, Number.POSITIVE_INFINITY])).toEqual({ served: [1e6, 5], unserved: 0 });
  });

  it('serves the most any placement serves, on 300 random small pools', () => {
    const random = seededRandom(17);
    const int = (n: number) => Math.floor(random() * n);
    for (let i = 0; i < 300; i++) {
      const tokens = 1 + int(3);
      const left = Array.from({ length: tokens }, () => int(5));
      const groups = Array.from({ length: 1 + int(3) }, () => {
        const covering = Array.from({ length: tokens }, (_, t) => t).filter(() => random() < 0.6);
        return { requests: int(6), tokens: covering.length > 0 ? covering : [int(tokens)] };
      });
      const a = assignQuota(groups, left);
      const total = groups.reduce((s, g) => s + g.requests, 0);
      const served = a.served.reduce((s, x) => s + x, 0);
      expect(served, JSON.stringify({ groups, left })).toBe(bruteMost(groups, left));
      expect(a.unserved).toBe(total - served);
      // No group gets more than it asks; what is short is what is left over.
      a.served.forEach((x, g) => expect(x).toBeLessThanOrEqual(groups[g]!.requests));
      if (a.short) expect(a.short.requests - a.short.remaining).toBe(a.unserved);
    }
  });
});
