/**
 * A small deterministic random source. Halt records are generated from a hash of
 * (seed, exchange, day), so a day's records never depend on which other days were generated first.
 */
import { mulberry32 } from '../../core/mulberry32.js';
import { fmix32, fnv1a } from './fnv1a.js';

export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [lo, hi] (both inclusive). */
  int(lo: number, hi: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Picks by weight; weights need not sum to 1. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T;
}

export function seededRandom(...parts: readonly (string | number)[]): Random {
  // FNV-1a then the murmur3 finaliser, so nearby inputs give unrelated states.
  const next = mulberry32(fmix32(fnv1a(parts.map(String).join('\u241f'))));
  const pick = <T>(items: readonly T[]): T => {
    const item = items[Math.floor(next() * items.length)];
    if (item === undefined) throw new RangeError('pick from an empty list');
    return item;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    chance: (p) => next() < p,
    pick,
    weighted: <T>(entries: readonly (readonly [T, number])[]): T => {
      const total = entries.reduce((sum, [, w]) => sum + w, 0);
      let r = next() * total;
      for (const [value, w] of entries) {
        r -= w;
        if (r < 0) return value;
      }
      const last = entries[entries.length - 1];
      if (last === undefined) throw new RangeError('weighted pick from an empty list');
      return last[0];
    },
  };
}
