/**
 * The times of a file's rows, per group, as arithmetic runs: `[first, step, count]` triples that,
 * expanded in order (first, first + step, ... count values), give exactly the group's time column
 * in file order. A backfill's K-line file holds each code's bars one interval apart, so a whole
 * day is one run, and a market break adds one more. The manifest lists them (`times`), so the
 * post-run coverage knows which bars a file holds without reading it (coverage/kline-partitions.ts).
 *
 * Only integer times (epoch ms) are taken, and only while every group needs at most
 * MAX_RUNS_PER_GROUP runs: anything else (trades, a null time) lists no runs, and its readers read
 * the file's columns as before.
 */
export type TimeRun = readonly [first: number, step: number, count: number];

/** Each group's runs, keyed like the file's key ranges. */
export type TimeRuns = Readonly<Record<string, readonly TimeRun[]>>;

/** More runs than this a group, and listing them would cost more than reading the column. */
export const MAX_RUNS_PER_GROUP = 16;

/** Folds each group's times, row by row in file order, into runs. */
export class TimeRunsBuilder {
  private readonly first: Float64Array;
  private readonly step: Float64Array;
  private readonly count: Float64Array;
  private readonly prev: Float64Array;
  private readonly closed: TimeRun[][];
  private failed = false;

  constructor(groups: number) {
    this.first = new Float64Array(groups);
    this.step = new Float64Array(groups);
    this.count = new Float64Array(groups);
    this.prev = new Float64Array(groups);
    this.closed = Array.from({ length: groups }, () => []);
  }

  add(group: number, time: number): void {
    if (this.failed) return;
    if (!Number.isSafeInteger(time)) {
      this.failed = true;
      return;
    }
    const n = this.count[group]!;
    if (n === 0) {
      this.first[group] = time;
      this.count[group] = 1;
    } else if (n === 1) {
      this.step[group] = time - this.prev[group]!;
      this.count[group] = 2;
    } else if (time - this.prev[group]! === this.step[group]) {
      this.count[group] = n + 1;
    } else {
      const closed = this.closed[group]!;
      closed.push([this.first[group]!, this.step[group]!, n]);
      if (closed.length >= MAX_RUNS_PER_GROUP) this.failed = true;
      this.first[group] = time;
      this.count[group] = 1;
    }
    this.prev[group] = time;
  }

  /** The runs of every group that has rows, by name; undefined when some group's times did not fit. */
  runs(names: readonly string[]): TimeRuns | undefined {
    if (this.failed) return undefined;
    const out: Record<string, readonly TimeRun[]> = {};
    for (let g = 0; g < names.length; g++) {
      const n = this.count[g]!;
      if (n === 0) continue;
      // A lone value has no step: 0, so equal triples mean equal runs.
      out[names[g]!] = [...this.closed[g]!, [this.first[g]!, n === 1 ? 0 : this.step[g]!, n]];
    }
    return out;
  }
}

/**
 * How many times a group's runs stand for, and their lowest and highest; undefined for runs that
 * are not well formed (a manifest written by hand or damaged), so the caller reads the file.
 */
export function wellFormedRuns(runs: readonly TimeRun[]): { count: number; min: number; max: number } | undefined {
  if (!Array.isArray(runs) || runs.length === 0) return undefined;
  let count = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const run of runs) {
    if (!Array.isArray(run) || run.length !== 3 || !run.every((v) => Number.isSafeInteger(v)) || run[2] < 1) return undefined;
    const [first, step, n] = run;
    const last = first + step * (n - 1);
    if (!Number.isSafeInteger(last)) return undefined;
    count += n;
    min = Math.min(min, first, last);
    max = Math.max(max, first, last);
  }
  return { count, min, max };
}
