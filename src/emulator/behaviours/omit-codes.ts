import { fnv1a } from '../random/index.js';
import { draw, TAG } from './draw.js';

/**
 * R7: a depth or trade answer that leaves out requested codes (a code with no quote just now). Drawn
 * per (code, instant, trace): a retry with a new trace or a later round may get the code back.
 */
export function keptCodes<T extends { code: string }>(items: readonly T[], seed: number, rate: number, nowMs: number, trace: string): T[] {
  if (rate <= 0) return items.slice();
  const t = fnv1a(trace);
  return items.filter((p) => draw(seed, TAG.omit, fnv1a(p.code), nowMs, t) >= rate);
}
