import type { WireKline } from '../contracts.js';

/**
 * JSON of a K-line list. Closed bars come from the synthetic market frozen and shared between
 * requests, so their JSON is cached per object (a WeakMap: it goes when the market drops the bar);
 * the forming bar is a fresh object and is serialised each time. This is the hot path of /kline.
 */
const cache = new WeakMap<WireKline, string>();

export function klineJson(k: WireKline): string {
  let s = cache.get(k);
  if (s === undefined) {
    s = JSON.stringify(k);
    if (Object.isFrozen(k)) cache.set(k, s);
  }
  return s;
}

export function klineListJson(list: readonly WireKline[]): string {
  const parts = new Array<string>(list.length);
  for (let i = 0; i < list.length; i++) parts[i] = klineJson(list[i]!);
  return `[${parts.join(',')}]`;
}
