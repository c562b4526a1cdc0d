/**
 * A file's row times per group as its manifest entry lists them (`times`, lake/commit/time-runs.ts),
 * without opening the file. They are taken only when they agree with the rest of the entry: the
 * same groups as its key ranges, each group's lowest and highest time its range, and as many
 * times in all as the file has rows. Otherwise (no runs listed, or an entry that does not add up)
 * the answer is undefined and the caller reads the file's columns.
 */
import { wellFormedRuns, type TimeRun } from '../commit/time-runs.js';
import type { LakeFile } from './lake-files.js';

export function listedTimes(file: LakeFile): Map<string, readonly TimeRun[]> | undefined {
  const { times, ranges, rows } = file.listed;
  if (times === undefined || times === null || typeof times !== 'object' || ranges === undefined) return undefined;
  const groups = Object.keys(ranges);
  if (groups.length === 0 || groups.length !== Object.keys(times).length) return undefined;
  const out = new Map<string, readonly TimeRun[]>();
  let total = 0;
  for (const group of groups) {
    const runs = times[group];
    const shape = runs === undefined ? undefined : wellFormedRuns(runs);
    const [lo, hi] = ranges[group]!;
    if (shape === undefined || shape.min !== lo || shape.max !== hi) return undefined;
    total += shape.count;
    out.set(group, runs!);
  }
  return total === rows ? out : undefined;
}
