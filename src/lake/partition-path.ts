/** Partition segments (core/partition-value.ts) and the lake's guards for the paths built from them. */
import { confinePath } from '../core/confine-path.js';
import { SinkError } from '../core/errors.js';
import { partitionValue } from '../core/partition-value.js';

export { partitionSegment, partitionValue } from '../core/partition-value.js';

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
