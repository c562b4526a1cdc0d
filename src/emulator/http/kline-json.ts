import type { WireKline } from '../contracts.js';

/**
 * JSON of K-line lists, the hot path of /kline. The synthetic market hands out closed bars frozen
 * and shared between requests; only the forming bar is new each time. So:
 * - the JSON of each frozen bar is cached per object (WeakMap: it goes when the market drops the bar);
 * - the encoded run of leading frozen bars is cached as one Buffer (bounded LRU keyed by the first
 *   bar), reused only when every bar of the run is the very same object as before;
 * - mutable bars are serialised every time and never cached.
 */
const barCache = new WeakMap<WireKline, string>();
const MAX_RUNS = 256;
const runCache = new Map<WireKline, { items: readonly WireKline[]; bytes: Buffer }>();

export function klineJson(k: WireKline): string {
  let s = barCache.get(k);
  if (s === undefined) {
    s = JSON.stringify(k);
    if (Object.isFrozen(k)) barCache.set(k, s);
  }
  return s;
}

export function klineListJson(list: readonly WireKline[]): string {
  const parts = new Array<string>(list.length);
  for (let i = 0; i < list.length; i++) parts[i] = klineJson(list[i]!);
  return `[${parts.join(',')}]`;
}

/** The encoded bars `list[0..n)` joined by commas, for a run of frozen bars, from the cache when possible. */
function frozenRun(list: readonly WireKline[], n: number): Buffer {
  const first = list[0]!;
  const hit = runCache.get(first);
  if (hit !== undefined && hit.items.length === n) {
    let same = true;
    for (let i = 1; i < n; i++) {
      if (hit.items[i] !== list[i]) {
        same = false;
        break;
      }
    }
    if (same) {
      runCache.delete(first); // refresh its LRU position
      runCache.set(first, hit);
      return hit.bytes;
    }
  }
  const items = list.slice(0, n);
  const bytes = Buffer.from(items.map(klineJson).join(','), 'utf8');
  runCache.delete(first);
  runCache.set(first, { items, bytes });
  if (runCache.size > MAX_RUNS) runCache.delete(runCache.keys().next().value!);
  return bytes;
}

/**
 * The JSON of `list` as chunks to write one after the other (`[`, cached Buffer of the frozen run,
 * the rest, `]`), joined by `prefix` and `suffix`. Concatenated, it equals
 * `prefix + JSON.stringify(list) + suffix`.
 */
export function klineListChunks(prefix: string, list: readonly WireKline[], suffix: string): (string | Buffer)[] {
  let n = 0;
  while (n < list.length && Object.isFrozen(list[n])) n++;
  if (n < 2) return [prefix, klineListJson(list), suffix];
  const rest = list.slice(n).map(klineJson);
  const tail = rest.length === 0 ? `]${suffix}` : `,${rest.join(',')}]${suffix}`;
  return [`${prefix}[`, frozenRun(list, n), tail];
}
