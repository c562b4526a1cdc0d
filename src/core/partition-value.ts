/**
 * Hive partition segments that can never escape the dataset folder: a value keeps only
 * [A-Za-z0-9._-]; any other character is percent-encoded (UTF-8 bytes, `%` itself included), and
 * dots are encoded too when the value is `.`, `..` or contains `..`. An empty value is refused.
 * A primitive of core so that every place that names a partition (the lake, the planner, the
 * queue) spells it the same way.
 */
import { SinkError } from './errors.js';

const SAFE = /^[A-Za-z0-9._-]+$/;
const cache = new Map<string, string>();

export function partitionValue(value: string): string {
  const hit = cache.get(value);
  if (hit !== undefined) return hit;
  if (value.length === 0) throw new SinkError('empty partition value');
  let out = SAFE.test(value)
    ? value
    : Array.from(Buffer.from(value, 'utf8'))
        .map((b) => {
          const c = String.fromCharCode(b);
          return /[A-Za-z0-9._-]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
        })
        .join('');
  if (out === '.' || out.includes('..')) out = out.replaceAll('.', '%2E');
  if (cache.size > 10_000) cache.clear();
  cache.set(value, out);
  return out;
}

export function partitionSegment(key: string, value: string): string {
  return `${key}=${partitionValue(value)}`;
}
