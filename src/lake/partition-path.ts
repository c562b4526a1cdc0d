/**
 * Hive partition segments that can never escape the dataset folder: a value keeps only
 * [A-Za-z0-9._-]; any other character is percent-encoded (UTF-8 bytes, `%` itself included), and
 * dots are encoded too when the value is `.`, `..` or contains `..`. An empty value is refused.
 */
import { confinePath } from '../core/confine-path.js';
import { SinkError } from '../core/errors.js';

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

/** Join under `root` and prove the result stays inside it (defence in depth): the one guard of src/core. */
export function insideRoot(root: string, relative: string): string {
  return confinePath(root, relative, 'lake path');
}

/** A run id as a file-name fragment. */
export function safeFileToken(value: string): string {
  return partitionValue(value).replaceAll('%', '_');
}

/**
 * The hive keys of a partition path (`interval=1m/year=2026/date=...` → `{ interval: '1m', ... }`),
 * values decoded: since layout 2 a hive key lives in the path only, so reading a file back takes
 * it from here.
 */
export function partitionKeys(partition: string): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const segment of partition.split('/')) {
    const eq = segment.indexOf('=');
    if (eq <= 0) continue;
    const raw = segment.slice(eq + 1);
    try {
      keys[segment.slice(0, eq)] = decodeURIComponent(raw);
    } catch {
      keys[segment.slice(0, eq)] = raw; // not our encoding (a folder someone else made): kept as written
    }
  }
  return keys;
}

/** One hive key of a partition path; a file outside any such partition cannot be read back. */
export function partitionKey(partition: string, key: string): string {
  const value = partitionKeys(partition)[key];
  if (value === undefined) throw new SinkError(`partition path ${JSON.stringify(partition)} has no ${key}= segment`);
  return value;
}
