/**
 * Stateless integer hashes: the synthetic market is a pure function of (seed, code, time) through
 * these, and every behaviour decision a hash of (seed, what it is about).
 */

/** 32-bit avalanche hash of four 32-bit integers. */
export function hash32(a: number, b: number, c: number, d: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h ^ b, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h ^ c, 0x27d4eb2f);
  h ^= h >>> 15;
  h = Math.imul(h ^ d, 0x165667b1);
  h ^= h >>> 13;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Uniform in [0, 1). */
export function unit(a: number, b: number, c: number, d: number): number {
  return hash32(a, b, c, d) / 4294967296;
}

/** Uniform in [-1, 1). */
export function symmetric(a: number, b: number, c: number, d: number): number {
  return hash32(a, b, c, d) / 2147483648 - 1;
}
