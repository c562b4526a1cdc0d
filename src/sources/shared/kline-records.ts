/**
 * One page of K-lines from the wire to raw records: de-duplicated by timestamp, ascending (W3: the
 * service's order is not relied on), each marked final or forming against the time of the answer.
 * Bars that cannot be placed (a malformed timestamp, two different bars under one timestamp, a
 * stamp off the product's grid, an answer for another series) are passed on as records with their
 * flaw, so parse-decimals rejects them by name and nothing vanishes.
 */
import { compareDecimal } from '../../core/decimal-compare.js';
import { stringifyExact } from '../../core/exact-json.js';
import type { Product } from '../../catalog/index.js';
import type { RecordFlaw } from '../../core/record-flaw.js';
import type { Interval, RawKline } from '../../core/records.js';
import { klineLaneAt, KlineLane } from '../../core/kline-lane.js';
import { laneOf, lazyRows } from '../../core/lazy-rows.js';
import { BAR_BEFORE_LISTING, BAR_IN_FUTURE, BAR_OFF_GRID, DUPLICATE_CONFLICT, ECHO_MISMATCH } from '../../core/reject-codes.js';
import { ScannedBar, ScannedWords } from '../../core/scanned-bar.js';
import type { WireKline } from '../../core/wire.js';
import { quoteValue } from '../../core/field-failure.js';
import { MAX_EPOCH_MS, TIME_MALFORMED } from '../../core/time.js';
import { cellStart, isFinalBar, klineTypeOf, listedStartMs } from '../../catalog/bar-grid.js';

const BAR_NUMBERS = ['open_price', 'close_price', 'high_price', 'low_price', 'volume', 'turnover'] as const;
const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;

export interface MalformedBar {
  readonly bar: WireKline;
  readonly flaw?: RecordFlaw;
}

export interface KlinePage {
  /** Bars with a valid timestamp, ascending, unique. */
  readonly bars: readonly WireKline[];
  /** The timestamp (Unix s) of each of `bars`, same index: side by side, no object (nor boxed number) a bar. */
  readonly ts: Float64Array;
  /** Bars that cannot be placed: passed on so parse-decimals rejects them by name. */
  readonly malformed: readonly MalformedBar[];
  /** The scanned page `bars` are, in its order (step 1) or reversed (-1), when the client scanned it. */
  readonly scanned?: { readonly page: ScannedWords; readonly first: number; readonly step: 1 | -1 };
}

/** Same bar: equal stamps (the caller grouped them so) and every number of equal value, whatever its text (R4: "1.5" is "1.50"). */
function sameBar(a: WireKline, b: WireKline): boolean {
  return BAR_NUMBERS.every((f) => sameNumber(a[f], b[f]));
}

/** Equal texts, or two plain decimals of one value; any other text (rejected later) only equals itself. */
function sameNumber(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  return typeof a === 'string' && typeof b === 'string' && PLAIN_DECIMAL.test(a) && PLAIN_DECIMAL.test(b) && compareDecimal(a, b) === 0;
}

/**
 * One answer's bars. An identical repeat is one bar (R2); two different bars under one timestamp
 * are all rejected, since nothing says which one is true.
 */
export function pageOf(bars: readonly WireKline[]): KlinePage {
  const scanned = laneOf(bars);
  return (scanned instanceof ScannedWords ? orderedScan(bars, scanned) : undefined) ?? orderedPage(bars) ?? anyOrderPage(bars);
}

/**
 * orderedPage for the bars of a scanned page, read from the page's stamps without making a bar;
 * undefined whenever orderedPage would be (a stamp that is not 1 to 12 digits is -1 here, and 0 is no stamp).
 */
function orderedScan(bars: readonly WireKline[], page: ScannedWords): KlinePage | undefined {
  const n = page.count;
  const order = monotonicStamps(n, (i) => (page.stamps[i]! <= 0 ? Number.NaN : page.stamps[i]!));
  if (order === undefined) return undefined;
  if (order.direction >= 0) return { bars, ts: order.ts, malformed: [], scanned: { page, first: 0, step: 1 } };
  return { bars: lazyRows(n, () => [...bars].reverse()), ts: order.ts.reverse(), malformed: [], scanned: { page, first: n - 1, step: -1 } };
}

/**
 * The `n` stamps `stampAt` gives, when every one is a safe integer and they go strictly one way:
 * with `direction` 1 (ascending), -1 (descending) or 0 (a single bar); undefined otherwise.
 */
function monotonicStamps(n: number, stampAt: (i: number) => number): { ts: Float64Array; direction: number } | undefined {
  const ts = new Float64Array(n);
  let direction = 0;
  for (let i = 0; i < n; i++) {
    const t = stampAt(i);
    if (!Number.isSafeInteger(t)) return undefined;
    if (i > 0) {
      const step = Math.sign(t - ts[i - 1]!);
      if (step === 0 || (direction !== 0 && step !== direction)) return undefined;
      direction = step;
    }
    ts[i] = t;
  }
  return { ts, direction };
}

const STAMP_TEXT = /^\d{1,12}$/;

/**
 * A bar's `timestamp` as Unix seconds (the scanner's number when it read the bar), or NaN when it
 * is not 1 to 12 digits or is 0: the epoch is an unset stamp, which would otherwise fall before any
 * window and vanish without a rejected record.
 */
function stampOf(bar: WireKline): number {
  const scanned = ScannedBar.stampOf(bar);
  if (scanned !== undefined) return scanned <= 0 ? Number.NaN : scanned;
  const stamp = (bar as unknown as { timestamp?: unknown } | null)?.timestamp;
  const seconds = typeof stamp === 'string' && STAMP_TEXT.test(stamp) ? Number(stamp) : 0;
  return seconds > 0 ? seconds : Number.NaN;
}

/**
 * The common answer, strictly ascending or strictly descending with every stamp valid: nothing to
 * de-duplicate, so no map and no sort (the same page as anyOrderPage gives). Undefined otherwise.
 */
function orderedPage(bars: readonly WireKline[]): KlinePage | undefined {
  const order = monotonicStamps(bars.length, (i) => stampOf(bars[i]!));
  if (order === undefined) return undefined;
  if (order.direction >= 0) return { bars, ts: order.ts, malformed: [] };
  return { bars: [...bars].reverse(), ts: order.ts.reverse(), malformed: [] };
}

function anyOrderPage(bars: readonly WireKline[]): KlinePage {
  const byTs = new Map<number, WireKline[]>();
  const malformed: MalformedBar[] = [];
  for (const bar of bars) {
    const ts = stampOf(bar);
    if (!Number.isSafeInteger(ts)) {
      malformed.push({ bar });
      continue;
    }
    const copies = byTs.get(ts);
    if (!copies) byTs.set(ts, [bar]);
    else if (!copies.some((c) => sameBar(c, bar))) copies.push(bar);
  }
  const kept = new Map<number, WireKline>();
  for (const [ts, copies] of byTs) {
    if (copies.length === 1) {
      kept.set(ts, copies[0]!);
      continue;
    }
    for (const bar of copies) {
      malformed.push({
        bar,
        flaw: {
          code: DUPLICATE_CONFLICT,
          field: 'timestamp',
          value: String(ts),
          reason: `${copies.length} different bars stamped ${ts} in one answer: none is kept`,
        },
      });
    }
  }
  return { ...ascendingOf(kept), malformed };
}

/** A page's bars and stamps, ascending, from bars by stamp. */
function ascendingOf(byTs: ReadonlyMap<number, WireKline>): { bars: WireKline[]; ts: Float64Array } {
  const ts = Float64Array.from(byTs.keys()).sort();
  return { bars: Array.from(ts, (t) => byTs.get(t)!), ts };
}

/** One answer's bars for `product`'s series: pageOf, less the bars that open before it was listed. */
export function productPage(product: Product, bars: readonly WireKline[]): KlinePage {
  return listedPage(product, pageOf(bars));
}

/**
 * The page less its bars that open before the product was listed (the catalog's listing date,
 * midnight in its zone), which join its malformed bars with their flaw: no such bar can exist, and
 * under every window it would be cut away unseen (one stamped "60", 1970, in a page of 2026 was).
 * Ascending, they are a prefix: a page without one costs a comparison.
 */
function listedPage(product: Product, page: KlinePage): KlinePage {
  const listedMs = listedStartMs(product);
  if (page.ts.length === 0 || page.ts[0]! * 1000 >= listedMs) return page;
  const n = firstAtOrAfter(page, listedMs / 1000);
  const before: MalformedBar[] = page.bars.slice(0, n).map((bar, i) => ({
    bar,
    flaw: {
      code: BAR_BEFORE_LISTING,
      field: 'timestamp',
      value: bar.timestamp,
      reason: `${new Date(page.ts[i]! * 1000).toISOString()} is before ${product.code} was listed (${product.listedSince}, ${product.gridZone})`,
    },
  }));
  return { bars: page.bars.slice(n), ts: page.ts.slice(n), malformed: [...before, ...page.malformed] };
}

/**
 * Merge answers in the order they came: a later answer's bar replaces an earlier one (a forming bar
 * moves on). A bad bar that several answers hold alike (a page asked for again) is one rejected
 * record, not one per answer.
 */
export function mergePages(pages: readonly KlinePage[]): KlinePage {
  const byTs = new Map<number, WireKline>();
  const malformed: MalformedBar[] = [];
  const seen = new Set<string>();
  for (const page of pages) {
    page.bars.forEach((bar, i) => byTs.set(page.ts[i]!, bar));
    for (const bad of page.malformed) {
      const key = stringifyExact([bad.bar, bad.flaw?.code ?? null, bad.flaw?.field ?? null]);
      if (seen.has(key)) continue;
      seen.add(key);
      malformed.push(bad);
    }
  }
  return { ...ascendingOf(byTs), malformed };
}

/** Why an answer is not the series asked for (its `code` or `kline_type` echo differs), or undefined. */
export function echoFlaw(asked: { code: string; interval: Interval }, answered: { code: string; klineType: number }, trace?: string): RecordFlaw | undefined {
  const want = klineTypeOf(asked.interval);
  const where = trace ? ` (trace ${trace})` : '';
  if (answered.code !== asked.code) {
    return { code: ECHO_MISMATCH, field: 'code', value: answered.code, reason: `answer for ${JSON.stringify(answered.code)}, asked for ${JSON.stringify(asked.code)}${where}` };
  }
  if (answered.klineType !== want) {
    return { code: ECHO_MISMATCH, field: 'kline_type', value: String(answered.klineType), reason: `answer for kline_type ${answered.klineType}, asked for ${want} (${asked.interval})${where}` };
  }
  return undefined;
}

/** A whole answer for another series: every bar of it, as rejected records. */
export function mismatchedPage(bars: readonly WireKline[], flaw: RecordFlaw): KlinePage {
  return { bars: [], ts: new Float64Array(0), malformed: bars.map((bar) => ({ bar, flaw })) };
}

/**
 * When an answer's request was asked for and when the answer came. The service read its bars in
 * between: a bar is final only if its interval had ended when the request was asked for (an answer
 * that arrives after a bar's end may still hold it forming), and a bar opening after the answer
 * came cannot be.
 */
export interface AnswerTimes {
  readonly askedAtMs: number;
  readonly answeredAtMs: number;
}

/**
 * The page's bars from index `from` to before `to` as raw records (a page is ascending: a time
 * range is an index range). A scanned page whose bars are all on the grid gives records made on
 * their first read, with a K-line lane beside them (kline-lane.ts) that later stages read instead.
 */
export function toRawKlines(product: Product, interval: Interval, page: KlinePage, at: AnswerTimes, source: string, from = 0, to = page.bars.length): readonly RawKline[] {
  const scanned = page.scanned;
  // Ascending: the last bar is the only one to look at for a bar yet to come.
  if (scanned === undefined || to <= from || page.ts[to - 1]! * 1000 > at.answeredAtMs + FUTURE_SKEW_MS) return rawKlines(product, interval, page, at, source, from, to);
  const n = to - from;
  const final = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const ms = page.ts[from + i]! * 1000;
    if (cellStart(product, interval, ms) !== ms) return rawKlines(product, interval, page, at, source, from, to);
    final[i] = isFinalBar(product, interval, ms, at.askedAtMs) ? 1 : 0;
  }
  const lane = new KlineLane('raw', scanned.page, scanned.first + scanned.step * from, scanned.step, product.code, interval, source, page.ts.subarray(from, to), final);
  return lazyRows(n, () => rawKlines(product, interval, page, at, source, from, to), lane);
}

function rawKlines(product: Product, interval: Interval, page: KlinePage, at: AnswerTimes, source: string, from: number, to: number): RawKline[] {
  const out = new Array<RawKline>(Math.max(0, to - from));
  for (let i = from; i < to; i++) {
    const bar = page.bars[i]!;
    const ms = page.ts[i]! * 1000;
    const record: RawKline = { code: product.code, interval, bar, final: isFinalBar(product, interval, ms, at.askedAtMs), source };
    const flaw = timeFlaw(product, interval, bar, ms, at.answeredAtMs);
    out[i - from] = flaw === undefined ? record : { ...record, final: false, flaw };
  }
  return out;
}

/**
 * How far past the answer's arrival a bar may open and still be taken: the service's clock may run
 * ahead of this host's by a little. A bar further ahead cannot have begun (a stamp in 2100 once went
 * into the lake as a forming bar, and coverage then counted millions of missing bars up to it).
 */
export const FUTURE_SKEW_MS = 60_000;

/** Why a bar's open time cannot be placed, or undefined: off its grid (W12), or yet to come. */
function timeFlaw(product: Product, interval: Interval, bar: WireKline, ms: number, answeredAtMs: number): RecordFlaw | undefined {
  // No TIMESTAMP column holds it: the documented code says so, not the skew check it also fails.
  if (ms > MAX_EPOCH_MS) {
    return { code: TIME_MALFORMED, field: 'timestamp', value: bar.timestamp, reason: `${quoteValue(String(bar.timestamp))} is beyond year 9999 in Unix seconds` };
  }
  if (ms > answeredAtMs + FUTURE_SKEW_MS) {
    return { code: BAR_IN_FUTURE, field: 'timestamp', value: bar.timestamp, reason: `${new Date(ms).toISOString()} is after the answer was received (${new Date(answeredAtMs).toISOString()})` };
  }
  if (cellStart(product, interval, ms) === ms) return undefined;
  // W12: a bar opens at the start of its grid cell; one stamped inside a cell is not a bar we can place.
  return { code: BAR_OFF_GRID, field: 'timestamp', value: bar.timestamp, reason: `${new Date(ms).toISOString()} is not on the ${interval} grid of ${product.code} (${product.gridZone})` };
}

/** The first index of an ascending page whose stamp is at least `sec` (the page's length when none is). */
export function firstAtOrAfter(page: KlinePage, sec: number): number {
  let lo = 0;
  let hi = page.ts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (page.ts[mid]! < sec) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function malformedRecords(code: string, interval: Interval, bars: readonly MalformedBar[], source: string): RawKline[] {
  return bars.map(({ bar, flaw }) => ({ code, interval, bar, final: false, source, ...(flaw ? { flaw } : {}) }));
}

/** The newest final bar the records put on the grid (Unix s), or null: flawed records move no watermark. */
export function newestFinal(records: readonly RawKline[]): number | null {
  const lane = klineLaneAt(laneOf(records), 'raw');
  if (lane !== undefined) {
    // Ascending and all on the grid: the last final record is the newest.
    for (let i = lane.length - 1; i >= 0; i--) if (lane.final[i] === 1) return lane.seconds[i]!;
    return null;
  }
  let top: number | null = null;
  for (const r of records) {
    if (r.flaw !== undefined || !r.final) continue;
    const t = stampOf(r.bar);
    if (top === null || t > top) top = t;
  }
  return top;
}

/** Stream key of a series. */
export function klineStream(code: string, interval: Interval): string {
  return `kline/${code}/${interval}`;
}
