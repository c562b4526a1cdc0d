/**
 * The emulator's one source of randomness: every draw is a pure function of a seed, so the emulator
 * stays the reproducible ground truth of the tests. Streams (mulberry32, seededRandom) for faults and
 * halt records; stateless hashes (hash32, unit, symmetric) for the market and the behaviours.
 */
export { mulberry32 } from '../../core/mulberry32.js';
export { fnv1a, fmix32 } from './fnv1a.js';
export { hash32, symmetric, unit } from './hash32.js';
export { seededRandom, type Random } from './seeded-random.js';
