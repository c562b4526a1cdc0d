import { hash32 } from '../random/index.js';

/**
 * Stateless seeded draws: a behaviour's decision is a hash of (seed, what it is about), never a
 * position in a shared random stream. So the same request gets the same answer whatever other
 * requests arrived before or alongside it, and concurrent clients stay reproducible.
 */

/** Uniform in [0, 1) from the seed, a tag naming the decision, and integer parts (any size up to 2^53). */
export function draw(seed: number, tag: number, ...parts: readonly number[]): number {
  let h = hash32(seed >>> 0, tag >>> 0, parts.length, 0x2545f491);
  for (const p of parts) h = hash32(h, p >>> 0, Math.floor(p / 4294967296) >>> 0, tag >>> 0);
  return h / 4294967296;
}

/** Tags: one per kind of decision, so two decisions about the same thing are independent. */
export const TAG = {
  missing: 1,
  short: 2,
  shortCount: 3,
  order: 4,
  shuffle: 5,
  overlap: 6,
  numberForm: 7,
  numberFormKind: 8,
  extraField: 9,
  extraFieldKind: 10,
  haltDuplicate: 11,
  haltDuplicateAt: 12,
  omit: 13,
  batchShuffle: 14,
} as const;

/** A seeded Fisher-Yates shuffle of a copy of `items`. */
export function shuffled<T>(items: readonly T[], seed: number, tag: number, ...parts: readonly number[]): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(draw(seed, tag, ...parts, i) * (i + 1));
    const t = out[i]!;
    out[i] = out[j]!;
    out[j] = t;
  }
  return out;
}
