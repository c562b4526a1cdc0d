/**
 * One page of K-lines from the wire to raw records: de-duplicated by timestamp, ascending (W3: the
 * service's order is not relied on), each marked final or forming against the time of the answer.
 * Bars that cannot be placed (a malformed timestamp, two different bars under one timestamp, a
 * stamp off the product's grid, an answer for another series) are passed on as records with their
 * flaw, so parse-decimals rejects them by name and nothing vanishes.
 */
import type { Product } from '../../catalog/index.js';
import type { RecordFlaw } from '../../core/record-flaw.js';
import type { Interval, RawKline } from '../../core/records.js';
import { BAR_OFF_GRID, DUPLICATE_CONFLICT, ECHO_MISMATCH } from '../../core/reject-codes.js';
import type { WireKline } from '../../core/wire.js';
import { cellStart, isFinalBar, klineTypeOf } from '../../catalog/bar-grid.js';

const BAR_FIELDS = ['timestamp', 'open_price', 'close_price', 'high_price', 'low_price', 'volume', 'turnover'] as const;

export interface MalformedBar {
  readonly bar: WireKline;
  readonly flaw?: RecordFlaw;
}

export interface KlinePage {
  /** Bars with a valid timestamp, ascending, unique. */
  readonly bars: readonly { readonly ts: number; readonly bar: WireKline }[];
  /** Bars that cannot be placed: passed on so parse-decimals rejects them by name. */
  readonly malformed: readonly MalformedBar[];
}

function sameBar(a: WireKline, b: WireKline): boolean {
  return BAR_FIELDS.every((f) => a[f] === b[f]);
}

/**
 * One answer's bars. An identical repeat is one bar (R2); two different bars under one timestamp
 * are all rejected, since nothing says which one is true.
 */
export function pageOf(bars: readonly WireKline[]): KlinePage {
  return orderedPage(bars) ?? anyOrderPage(bars);
}

/** A bar's `timestamp` as Unix seconds, or NaN when it is not 1 to 12 digits. */
function stampOf(bar: WireKline): number {
  const stamp = (bar as unknown as { timestamp?: unknown } | null)?.timestamp;
  return typeof stamp === 'string' && /^\d{1,12}$/.test(stamp) ? Number(stamp) : Number.NaN;
}

/**
 * The common answer, strictly ascending or strictly descending with every stamp valid: nothing to
 * de-duplicate, so no map and no sort (the same page as anyOrderPage gives). Undefined otherwise.
 */
function orderedPage(bars: readonly WireKline[]): KlinePage | undefined {
  const n = bars.length;
  const out = new Array<{ ts: number; bar: WireKline }>(n);
  let direction = 0;
  for (let i = 0; i < n; i++) {
    const bar = bars[i]!;
    const ts = stampOf(bar);
    if (!Number.isSafeInteger(ts)) return undefined;
    if (i > 0) {
      const step = Math.sign(ts - out[i - 1]!.ts);
      if (step === 0 || (direction !== 0 && step !== direction)) return undefined;
      direction = step;
    }
    out[i] = { ts, bar };
  }
  if (direction < 0) out.reverse();
  return { bars: out, malformed: [] };
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
  const sorted: { ts: number; bar: WireKline }[] = [];
  for (const [ts, copies] of byTs) {
    if (copies.length === 1) {
      sorted.push({ ts, bar: copies[0]! });
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
  sorted.sort((a, b) => a.ts - b.ts);
  return { bars: sorted, malformed };
}

/** Merge answers in the order they came: a later answer's bar replaces an earlier one (a forming bar moves on). */
export function mergePages(pages: readonly KlinePage[]): KlinePage {
  const byTs = new Map<number, WireKline>();
  const malformed: MalformedBar[] = [];
  for (const page of pages) {
    for (const { ts, bar } of page.bars) byTs.set(ts, bar);
    malformed.push(...page.malformed);
  }
  const bars = [...byTs.entries()].sort((a, b) => a[0] - b[0]).map(([ts, bar]) => ({ ts, bar }));
  return { bars, malformed };
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
  return { bars: [], malformed: bars.map((bar) => ({ bar, flaw })) };
}

export function toRawKlines(
  product: Product,
  interval: Interval,
  bars: readonly { readonly ts: number; readonly bar: WireKline }[],
  answeredAtMs: number,
  source: string,
): RawKline[] {
  return bars.map(({ ts, bar }) => {
    const ms = ts * 1000;
    const record: RawKline = { code: product.code, interval, bar, final: isFinalBar(product, interval, ms, answeredAtMs), source };
    if (cellStart(product, interval, ms) === ms) return record;
    // W12: a bar opens at the start of its grid cell; one stamped inside a cell is not a bar we can place.
    const flaw: RecordFlaw = { code: BAR_OFF_GRID, field: 'timestamp', value: bar.timestamp, reason: `${new Date(ms).toISOString()} is not on the ${interval} grid of ${product.code} (${product.gridZone})` };
    return { ...record, final: false, flaw };
  });
}

export function malformedRecords(code: string, interval: Interval, bars: readonly MalformedBar[], source: string): RawKline[] {
  return bars.map(({ bar, flaw }) => ({ code, interval, bar, final: false, source, ...(flaw ? { flaw } : {}) }));
}

/** Bars a page puts on the grid: flawed records move no watermark. */
export function placed(records: readonly RawKline[]): RawKline[] {
  return records.filter((r) => r.flaw === undefined);
}

/** Stream key of a series. */
export function klineStream(code: string, interval: Interval): string {
  return `kline/${code}/${interval}`;
}
