import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findProduct } from '../../src/catalog/index.js';
import { cellEnd } from '../../src/catalog/bar-grid.js';
import type { Interval } from '../../src/core/records.js';
import { coverageOfOutput, formatCoverageReport, type CoverageReport, type Gap, type GapReason, type SeriesCoverage } from '../../src/coverage/index.js';
import { classify, SeriesAudit } from '../../src/coverage/series-audit.js';
import { readLakeRecords, type LakeFormat } from '../../src/lake/reader/index.js';
import { runStartMs } from '../../src/sources/kline-history/kline-position.js';
import { runRange } from '../../src/cli/run-coverage-range.js';
import { klineRows, T0 } from '../sinks/fixtures.js';
import { tempDir } from '../sinks/helpers.js';
import { bars, commitRun, writeLake } from '../lake/reader/lake-fixture.js';

const DAY = 86_400;
/** 2025-11-20T07:00Z: the day after T0, in a partition of its own. */
const T1 = T0 + DAY;
const ms = (sec: number) => sec * 1000;
const without = <T>(list: T[], from: number, to: number) => list.filter((_, i) => i < from || i > to);

/**
 * An older run (day of T0: BTCUSDT bars 0..119 without 30..34, ETHUSDT beside it in the same files)
 * and this run (day of T1: BTCUSDT bars 0..59 without 20..22). Between the two runs lies a gap too.
 */
async function lakeWithHistory(out: string, format: LakeFormat): Promise<void> {
  await commitRun(out, format, 'old', klineRows([...without(bars('BTCUSDT', '1m', T0, 120, 60), 30, 34), ...bars('ETHUSDT', '1m', T0, 120, 60)]));
  await commitRun(out, format, 'new', klineRows([...without(bars('BTCUSDT', '1m', T1, 60, 60), 20, 22), ...bars('ETHUSDT', '1m', T1, 60, 60)]));
}

/** The report as computed before it was streamed: every row decoded, per series a Set, sorted, then classified. */
async function wholeLakeReport(out: string, format: LakeFormat): Promise<CoverageReport> {
  const rows = await readLakeRecords(out, 'kline', format);
  const bySeries = new Map<string, { code: string; interval: Interval; ts: Set<number> }>();
  for (const r of rows) {
    const key = `${r.code} ${r.interval}`;
    const s = bySeries.get(key) ?? { code: r.code, interval: r.interval, ts: new Set<number>() };
    bySeries.set(key, s);
    s.ts.add(r.ts);
  }
  const totals: Record<GapReason, number> = { 'market-closed': 0, halted: 0, unexplained: 0 };
  const series: SeriesCoverage[] = [];
  for (const s of [...bySeries.values()].sort((a, b) => (a.code === b.code ? a.interval.localeCompare(b.interval) : a.code < b.code ? -1 : 1))) {
    const ts = [...s.ts].sort((a, b) => a - b);
    const product = findProduct(s.code)!;
    const counts: Record<GapReason, number> = { 'market-closed': 0, halted: 0, unexplained: 0 };
    const gaps: Gap[] = [];
    for (let i = 1; i < ts.length; i++) {
      const end = cellEnd(product, s.interval, ts[i - 1]!);
      if (ts[i]! <= end) continue;
      const gap = classify(product, s.interval, end, ts[i]!, null);
      counts[gap.reason]++;
      totals[gap.reason]++;
      if (gap.reason !== 'market-closed') gaps.push(gap);
    }
    series.push({ code: s.code, interval: s.interval, first: ts[0]!, last: ts.at(-1)!, bars: ts.length, gaps, counts });
  }
  return { series, totals, haltsUsed: false };
}

describe("a run's coverage covers its own range", () => {
  it.each(['parquet', 'arrow'] as const)('%s: bars, first/last and gaps within the range; a gap of older history is not the run\'s', async (format) => {
    const out = await tempDir();
    await lakeWithHistory(out, format);
    const whole = await coverageOfOutput(out, { format, series: [{ code: 'BTCUSDT', interval: '1m' }] });
    // Over the whole history: the older gap, the gap between the runs and this run's gap.
    expect(whole.series[0]).toMatchObject({ bars: 172, first: ms(T0), last: ms(T1 + 59 * 60), counts: { 'market-closed': 0, halted: 0, unexplained: 3 } });

    // Which files the run's range needs: the older day's files are made unreadable, and are never opened.
    const oldDay = join(out, 'kline', 'interval=1m', 'year=2025', 'date=2025-11-19');
    for (const f of await readdir(oldDay)) await writeFile(join(oldDay, f), 'not a data file');
    const report = await coverageOfOutput(out, { format, series: [{ code: 'BTCUSDT', interval: '1m', from: ms(T1) }] });
    expect(report.series).toHaveLength(1);
    const btc = report.series[0]!;
    expect(btc).toMatchObject({ code: 'BTCUSDT', interval: '1m', bars: 57, first: ms(T1), last: ms(T1 + 59 * 60), range: { from: ms(T1) } });
    expect(btc.counts).toEqual({ 'market-closed': 0, halted: 0, unexplained: 1 });
    expect(btc.gaps).toEqual([{ from: ms(T1 + 20 * 60), to: ms(T1 + 23 * 60), reason: 'unexplained', missingBars: 3, firstUnexplained: ms(T1 + 20 * 60) }]);
    expect(report.totals).toEqual({ 'market-closed': 0, halted: 0, unexplained: 1 });
    expect(formatCoverageReport(report, { rangeLabel: "this run's range" })).toBe(
      [
        'coverage: 1 series; gaps: 0 market closed, 0 halted, 1 unexplained (no halt dataset: halts count as unexplained)',
        "  BTCUSDT 1m: 57 bars 2025-11-20T07:00Z .. 2025-11-20T07:59Z (this run's range); closed 0, halted 0, unexplained 1",
        '    unexplained: 2025-11-20T07:20Z .. 2025-11-20T07:23Z (3 bars missing)',
      ].join('\n'),
    );
    // An upper bound too: bars after it are not counted.
    const upTo = await coverageOfOutput(out, { format, series: [{ code: 'BTCUSDT', interval: '1m', from: ms(T1), to: ms(T1 + 10 * 60) }] });
    expect(upTo.series[0]).toMatchObject({ bars: 11, first: ms(T1), last: ms(T1 + 10 * 60), counts: { unexplained: 0 } });
    // A range the lake holds nothing of: no series.
    expect((await coverageOfOutput(out, { format, series: [{ code: 'BTCUSDT', interval: '1m', from: ms(T1 + DAY) }] })).series).toEqual([]);
  });

  it('starts at the last bar held before the run, lower when the run added older history', () => {
    const empty = { watermark: null, low: null };
    // First run: everything it wrote.
    expect(runStartMs(empty, { watermark: T1, low: T0 })).toBe(ms(T0));
    // An incremental run: from the watermark it started from (a hole where it joins the last run is its own).
    expect(runStartMs({ watermark: T1, low: T0 }, { watermark: T1 + 2880, low: T0 })).toBe(ms(T1));
    // A run that found nothing new still covers the bar it started from.
    expect(runStartMs({ watermark: T1, low: T0 }, { watermark: T1, low: T0 })).toBe(ms(T1));
    // `since` moved earlier: the history added below.
    expect(runStartMs({ watermark: T1, low: T0 }, { watermark: T1 + 60, low: T0 - DAY })).toBe(ms(T0 - DAY));
    // A walk a killed run left: above its top, and what the resumed walk added below.
    expect(runStartMs({ watermark: null, low: T1, walk: { next: T1 - 1, floor: T0, top: T1 + 600 } }, { watermark: T1 + 900, low: T0 })).toBe(ms(T0));
    expect(runStartMs({ watermark: null, low: T1, walk: { next: T1 - 1, floor: T0, top: T1 + 600 } }, { watermark: T1 + 900, low: T1 })).toBe(ms(T1 + 600));
    expect(runStartMs(empty, empty)).toBeUndefined();
  });

  it('counts the bars missing between since and the lowest bar a walk to since found (not when history begins later)', async () => {
    const out = await tempDir();
    // This run walked down to since = T1 and found bars older than it, yet 07:00-07:02 are missing.
    await commitRun(out, 'parquet', 'r', klineRows(bars('BTCUSDT', '1m', T1 + 180, 57, 60)));
    const from = runRange({ watermark: null, low: null }, { watermark: T1 + 59 * 60, low: T1 + 180 }, ms(T1), undefined);
    expect(from).toEqual({ from: ms(T1), expectFrom: true });
    const report = await coverageOfOutput(out, { series: [{ code: 'BTCUSDT', interval: '1m', ...from! }] });
    expect(report.series[0]).toMatchObject({ bars: 57, first: ms(T1 + 180), counts: { unexplained: 1 } });
    expect(report.series[0]!.gaps).toEqual([{ from: ms(T1), to: ms(T1 + 180), reason: 'unexplained', missingBars: 3, firstUnexplained: ms(T1) }]);
    // History that begins later than since (R1), an unfinished walk, or a since the lake held below already: no leading gap.
    expect(runRange({ watermark: null, low: null }, { watermark: T1 + 3540, low: T1 + 180, begins: T1 + 180 }, ms(T1), undefined)).toEqual({ from: ms(T1 + 180) });
    expect(runRange({ watermark: null, low: null }, { watermark: null, low: T1 + 180, walk: { next: T1 + 120, floor: T1, top: T1 + 3540 } }, ms(T1), undefined)).toEqual({ from: ms(T1 + 180) });
    expect(runRange({ watermark: T1 + 3540, low: T0 }, { watermark: T1 + 3600, low: T0 }, ms(T1), undefined)).toEqual({ from: ms(T1 + 3540) });
  });

  it('a since off the bar grid, or on a closed market, is the range start, never a gap of any kind', async () => {
    const out = await tempDir();
    // A walk to since = 07:00:30 (a `2d` span taken at a clock off the minute): the bar opening at
    // 07:00 began before since and is not asked for, so BTCUSDT (trading 24/7) misses nothing.
    const since = ms(T1 + 30);
    await commitRun(out, 'parquet', 'r', klineRows([...bars('BTCUSDT', '1m', T1 + 60, 59, 60), ...bars('BTCUSDT', '1h', T1 + 3600, 3, 3600)]));
    const range1m = runRange({ watermark: null, low: null }, { watermark: T1 + 59 * 60, low: T1 + 60 }, since, undefined);
    const range1h = runRange({ watermark: null, low: null }, { watermark: T1 + 3 * 3600, low: T1 + 3600 }, since, undefined);
    expect([range1m, range1h]).toEqual([
      { from: since, expectFrom: true },
      { from: since, expectFrom: true },
    ]);
    const report = await coverageOfOutput(out, { series: [{ code: 'BTCUSDT', interval: '1m', ...range1m! }, { code: 'BTCUSDT', interval: '1h', ...range1h! }] });
    const none = { 'market-closed': 0, halted: 0, unexplained: 0 };
    expect(report.series.map((s) => [s.interval, s.bars, s.counts])).toEqual([
      ['1h', 3, none],
      ['1m', 59, none],
    ]);
    expect(report.totals).toEqual(none);
    // One minute later the 07:01 bar is asked for: missing, it is a gap again.
    const later = await coverageOfOutput(out, { series: [{ code: 'BTCUSDT', interval: '1m', from: ms(T1 - 30), expectFrom: true }] });
    expect(later.series[0]!.gaps).toEqual([{ from: ms(T1 - 30), to: ms(T1 + 60), reason: 'unexplained', missingBars: 1, firstUnexplained: ms(T1) }]);

    // EURUSD walked to a since on Saturday 2025-11-22: its first bar opens at Sunday 22:00Z. The
    // closed weekend before it is the range's start, not a market-closed gap; the weekend between two
    // held bars still is one.
    const fx = await tempDir();
    const sat = Date.UTC(2025, 10, 22, 12) / 1000;
    const sun22 = Date.UTC(2025, 10, 23, 22) / 1000;
    const fri21 = Date.UTC(2025, 10, 21, 21) / 1000;
    await commitRun(fx, 'parquet', 'r', klineRows(bars('EURUSD', '1h', sun22, 3, 3600)));
    const fxReport = await coverageOfOutput(fx, { series: [{ code: 'EURUSD', interval: '1h', from: ms(sat), expectFrom: true }] });
    expect(fxReport.series[0]).toMatchObject({ bars: 3, counts: none });
    await commitRun(fx, 'parquet', 'r2', klineRows(bars('EURUSD', '1h', fri21, 1, 3600)));
    const acrossWeekend = await coverageOfOutput(fx, { series: [{ code: 'EURUSD', interval: '1h', from: ms(fri21), expectFrom: true }] });
    expect(acrossWeekend.series[0]).toMatchObject({ bars: 4, counts: { ...none, 'market-closed': 1 } });
  });

  it("a series this pipeline never fetched starts at the newest bar the lake held before the run, so the join is checked", () => {
    const empty = { watermark: null, low: null };
    // kline-latest beside a backfill that ends at T1: this run wrote T1 + 240 on.
    expect(runRange(empty, { watermark: T1 + 300, low: T1 + 240 }, undefined, T1)).toEqual({ from: ms(T1) });
    // Its own checkpoint wins: from where this pipeline stood.
    expect(runRange({ watermark: T1 + 120, low: T1 + 60 }, { watermark: T1 + 300, low: T1 + 60 }, undefined, T1)).toEqual({ from: ms(T1 + 120) });
    // Held bars newer than what this run wrote are no join.
    expect(runRange(empty, { watermark: T1 + 300, low: T1 + 240 }, undefined, T1 + 600)).toEqual({ from: ms(T1 + 240) });
  });
});

describe('the streamed full-lake audit', () => {
  it.each(['parquet', 'arrow'] as const)('%s: equals the report of every row decoded', async (format) => {
    for (const write of [writeLake, lakeWithHistory]) {
      const out = await tempDir();
      await write(out, format);
      const expected = await wholeLakeReport(out, format);
      expect(expected.series.length).toBeGreaterThan(1);
      expect(await coverageOfOutput(out, { format })).toEqual(expected);
    }
  });

  it('reads the bars of every row group of a file', async () => {
    const out = await tempDir();
    // 2 codes x 1,440 bars of one day in one file of 1,024-row groups (3 groups), with a gap in the last.
    const day = T0 - 7 * 3600;
    await commitRun(out, 'parquet', 'r', klineRows([...without(bars('BTCUSDT', '1m', day, 1440, 60), 1300, 1309), ...bars('ETHUSDT', '1m', day, 1440, 60)]), { rowGroupRows: 1024 });
    const report = await coverageOfOutput(out);
    expect(report).toEqual(await wholeLakeReport(out, 'parquet'));
    expect(report.series.map((s) => [s.code, s.bars, s.counts.unexplained])).toEqual([
      ['BTCUSDT', 1430, 1],
      ['ETHUSDT', 1440, 0],
    ]);
  });

  it('counts every gap and lists a bounded number', () => {
    const audit = new SeriesAudit('BTCUSDT', '1m', { halts: null, maxListedGaps: 2 });
    // Bars every 2 minutes: 5 gaps of 1 bar.
    for (let i = 0; i <= 5; i++) audit.add(ms(T0 + i * 120));
    audit.add(ms(T0 + 600)); // a repeat is one bar
    const s = audit.result()!;
    expect(s).toMatchObject({ bars: 6, first: ms(T0), last: ms(T0 + 600), counts: { unexplained: 5 }, gapsNotListed: 3 });
    expect(s.gaps.map((g) => g.from)).toEqual([ms(T0 + 60), ms(T0 + 180)]);
    expect(() => audit.add(ms(T0))).toThrow(/ascending/);
  });
});
