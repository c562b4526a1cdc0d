/**
 * mulberry32: a tiny seeded PRNG (uniform in [0, 1)). One copy for both sides: the emulator draws
 * its faults and halt records from it, the client its retry jitter in tests and benches. It is not
 * part of the wire, so sharing it hides no disagreement between client and service.
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
