/**
 * The bar opens of a lake's K-line series, partition by partition in time order, for an audit that
 * keeps only O(series) state. A file is read only if its partition can hold a wanted series and
 * time: its interval (path), its day (`date=` in the path) and the manifest's key ranges (per code,
 * lowest and highest `ts`) must meet the wanted ranges; of a file read, only `ts` (and `code` when
 * the file holds several codes), and not even those when the manifest lists the file's times as
 * runs (a backfill's files: reader/listed-times.ts). Partitions are read a few ahead, never the
 * whole lake at once.
 */
import type { LakeLocation } from '../lake/storage/storage-of.js';
import { groupBy } from '../core/group-by.js';
import type { Interval } from '../core/records.js';
import { minorCollection } from '../lake/encode/minor-collection.js';
import { lakeDataset, listedTimes, readKeyTimes, type LakeFile, type LakeFormat, type TimeRun } from '../lake/reader/index.js';

const DAY_MS = 86_400_000;
/** Partitions read ahead of the one being audited: overlaps I/O and decoding, bounds memory. */
const READ_AHEAD = 4;
/**
 * A young-generation collection after this many partitions. The pages read and decompressed live
 * outside the JavaScript heap and the audit makes few objects, so V8 let tens of MB of them wait
 * for a collection: the post-run coverage of a 5M-row backfill was its peak of memory, 6-8 MB above
 * the rest of the run. A minor collection costs about a millisecond.
 */
const PARTITIONS_PER_COLLECTION = 4;

/** A wanted series and the bar opens wanted of it (ms, inclusive; absent = unbounded). */
export interface WantedSeries {
  readonly code: string;
  readonly interval: string;
  readonly from?: number;
  readonly to?: number;
  /**
   * Bars are expected from `from` on (the run walked its window down to there): the bars missing
   * between `from` and the first bar held are a gap too, classified like any other.
   */
  readonly expectFrom?: boolean;
}

/** One partition's bar opens per code, ascending, of the wanted series (all when none given). */
export interface PartitionBars {
  readonly interval: Interval;
  readonly partition: string;
  readonly byCode: ReadonlyMap<string, Float64Array>;
}

type Span = readonly [number, number];

/** The span of a code when no series is asked for. NaN (a null time) is in no span. */
const EVERY_TIME: Span = [-Infinity, Infinity];

const overlaps = (a: Span, b: Span) => a[0] <= b[1] && b[0] <= a[1];

/** The day a `date=YYYY-MM-DD` partition holds; undefined for year partitions (daily and longer bars). */
function daySpan(file: LakeFile): Span | undefined {
  const date = file.hive.date;
  if (date === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return undefined;
  const start = Date.parse(`${date}T00:00:00Z`);
  return [start, start + DAY_MS - 1];
}

/** The codes of `file` to take, or null for all of them; an empty set skips the file. */
function codesToRead(file: LakeFile, wanted: ReadonlyMap<string, readonly WantedSeries[]> | undefined): Set<string> | null {
  if (!wanted) return null;
  const interval = file.hive.interval;
  const mine = interval === undefined ? [] : (wanted.get(interval) ?? []);
  const day = daySpan(file);
  const ranges = file.listed.ranges ?? {};
  const listed = Object.keys(ranges).length > 0;
  const out = new Set<string>();
  for (const w of mine) {
    const span: Span = [w.from ?? -Infinity, w.to ?? Infinity];
    if (day && !overlaps(day, span)) continue;
    if (listed) {
      const r = ranges[w.code];
      // Listed ranges without this code: the file holds none of its bars.
      if (r === undefined) continue;
      if (typeof r[0] === 'number' && typeof r[1] === 'number' && !overlaps([r[0], r[1]], span)) continue;
    }
    out.add(w.code);
  }
  return out;
}

/** What was read of one file: times of one code (`only`) or of the codes `keys` name row by row. */
interface ReadTimes {
  readonly only: string | null;
  readonly keys: readonly string[] | null;
  readonly times: Float64Array;
}

/** `spanOf`: the wanted opens of a code in this partition's interval (inclusive), undefined for none. */
async function readPartition(files: readonly LakeFile[], codes: ReadonlySet<string> | null, spanOf: (code: string) => Span | undefined): Promise<PartitionBars> {
  const wantedSpan = (code: string) => (codes === null || codes.has(code) ? spanOf(code) : undefined);
  const read: ReadTimes[] = [];
  // Listed runs of the wanted codes, each with its span (looked up once).
  const listed: { code: string; runs: readonly TimeRun[]; span: Span }[] = [];
  for (const f of files) {
    // The manifest lists the file's times as runs (a backfill's files): nothing to open.
    const runsByCode = listedTimes(f);
    if (runsByCode !== undefined) {
      for (const [code, runs] of runsByCode) {
        const span = wantedSpan(code);
        if (span !== undefined) listed.push({ code, runs, span });
      }
      continue;
    }
    const ranged = Object.keys(f.listed.ranges ?? {});
    // A file of one code (its manifest ranges say so) needs only its ts column.
    const only = ranged.length === 1 ? ranged[0]! : null;
    const { keys, times } = await readKeyTimes(f, only === null ? 'code' : null, 'ts');
    read.push({ only, keys, times });
  }
  // Counted first, so each code's opens go straight into an array of their size (a partition of a
  // backfill holds tens of thousands of bars a code: no growing lists of boxed numbers).
  const counts = new Map<string, number>();
  for (const { code, runs, span } of listed) counts.set(code, (counts.get(code) ?? 0) + runsIn(runs, span, undefined, 0));
  forEachTaken(read, wantedSpan, (code) => counts.set(code, (counts.get(code) ?? 0) + 1));
  const byCode = new Map<string, Float64Array>();
  const filled = new Map<string, number>();
  for (const [code, n] of counts) {
    byCode.set(code, new Float64Array(n));
    filled.set(code, 0);
  }
  for (const { code, runs, span } of listed) filled.set(code, filled.get(code)! + runsIn(runs, span, byCode.get(code), filled.get(code)!));
  // Rows of a code come in runs: the previous row's array is kept at hand.
  let lastCode: string | undefined;
  let lastOpens: Float64Array | undefined;
  let at = 0;
  forEachTaken(read, wantedSpan, (code, ts) => {
    if (code !== lastCode) {
      if (lastCode !== undefined) filled.set(lastCode, at);
      lastCode = code;
      lastOpens = byCode.get(code)!;
      at = filled.get(code)!;
    }
    lastOpens![at++] = ts;
  });
  // Several files of a partition may interleave in time: sorted here, within the partition only.
  for (const opens of byCode.values()) if (!ascending(opens)) opens.sort();
  return { interval: files[0]!.hive.interval as Interval, partition: files[0]!.partition, byCode };
}

/** Each read row of a wanted code within its span, in file order. */
function forEachTaken(read: readonly ReadTimes[], wantedSpan: (code: string) => Span | undefined, take: (code: string, ts: number) => void): void {
  // Rows of a code come in runs: its span is looked up once a run, not once a row.
  let spanCode: string | undefined;
  let span: Span | undefined;
  for (const { only, keys, times } of read) {
    for (let i = 0; i < times.length; i++) {
      const code = only ?? keys![i]!;
      const ts = times[i]!;
      if (code !== spanCode) {
        spanCode = code;
        span = wantedSpan(code);
      }
      if (span !== undefined && ts >= span[0] && ts <= span[1]) take(code, ts);
    }
  }
}

/** The times of `runs` within `span`: counted, and written into `out` from `at` when given. */
function runsIn(runs: readonly TimeRun[], span: Span, out: Float64Array | undefined, at: number): number {
  let n = 0;
  for (const [first, step, count] of runs) {
    for (let k = 0; k < count; k++) {
      const ts = first + step * k;
      if (ts < span[0] || ts > span[1]) continue;
      if (out !== undefined) out[at + n] = ts;
      n++;
    }
  }
  return n;
}

/** Every wanted bar of the kline dataset, partition by partition: by interval, then in time order. */
export async function* klinePartitions(outputDir: LakeLocation, format: LakeFormat, series?: readonly WantedSeries[]): AsyncGenerator<PartitionBars> {
  const ds = await lakeDataset(outputDir, 'kline', format);
  if (!ds) return;
  const wanted = series ? groupBy(series, (s) => s.interval) : undefined;
  const byPartition = new Map<string, { files: LakeFile[]; codes: Set<string> | null }>();
  for (const f of ds.files) {
    if (f.hive.interval === undefined) continue;
    const codes = codesToRead(f, wanted);
    if (codes !== null && codes.size === 0) continue;
    const p = byPartition.get(f.partition) ?? { files: [], codes: codes === null ? null : new Set<string>() };
    byPartition.set(f.partition, p);
    p.files.push(f);
    if (p.codes && codes) for (const c of codes) p.codes.add(c);
  }
  const spans = new Map<string, Span>();
  for (const s of series ?? []) spans.set(`${s.code}\u0000${s.interval}`, [s.from ?? -Infinity, s.to ?? Infinity]);
  // `interval=1m/year=2026/date=2026-11-21`: within an interval, path order is time order (the
  // year and the zero-padded date sort as text; year partitions of daily bars likewise).
  const order = [...byPartition.keys()].sort();
  const read = (partition: string) => {
    const p = byPartition.get(partition)!;
    const interval = p.files[0]!.hive.interval!;
    const spanOf = series ? (code: string) => spans.get(`${code}\u0000${interval}`) : () => EVERY_TIME;
    const pending = readPartition(p.files, p.codes, spanOf);
    // Read ahead: a failure surfaces when its turn comes, never as an unhandled rejection.
    pending.catch(() => undefined);
    return pending;
  };
  const ahead: Promise<PartitionBars>[] = [];
  let next = 0;
  let taken = 0;
  while (next < order.length || ahead.length > 0) {
    while (ahead.length < READ_AHEAD && next < order.length) ahead.push(read(order[next++]!));
    yield await ahead.shift()!;
    if (++taken % PARTITIONS_PER_COLLECTION === 0) minorCollection();
  }
}

function ascending(a: Float64Array): boolean {
  for (let i = 1; i < a.length; i++) if (a[i]! < a[i - 1]!) return false;
  return true;
}
