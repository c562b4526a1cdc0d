import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { barOpens } from '../../src/catalog/bar-grid.js';
import { findProduct } from '../../src/catalog/index.js';
import { classify } from '../../src/coverage/series-audit.js';
import { coverageOfOutput, coverageReport, formatCoverageReport, readKlineRows, type KlineLike } from '../../src/coverage/index.js';
import type { Interval } from '../../src/core/records.js';
import { startWorld, type World } from '../sources/helpers/world.js';
import { run } from '../sources/helpers/run.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

function rowsFrom(w: World, code: string, interval: Interval, klineType: number, endSec: number, count: number): KlineLike[] {
  return w.market.klines(findProduct(code)!, klineType, endSec, count, w.clock.now()).map((b) => ({ code, interval, ts: Number(b.timestamp) * 1000 }));
}

describe('coverage report over an emulator dataset', () => {
  it('kline + halt datasets written by pipelines: sessions and halts explain every gap', async () => {
    world = await startWorld('2026-03-04T12:00:00.000Z');
    const w = world;
    const client = w.client('professional');
    const outputDir = join(w.dir, 'out');
    const sink = { type: 'parquet' };
    await run(
      {
        name: 'cov-klines',
        source: { type: 'kline-history', codes: ['AAPL.US', '600000.SH', '700.HK', 'EURUSD', 'BTCUSDT', 'GOLD'], intervals: ['30m', '1d'], since: '2026-02-01' },
        transforms: [{ type: 'parse-decimals' }],
        sink,
      },
      { client, clock: w.clock, outputDir },
    );
    w.clock.advance(60_000);
    await run(
      { name: 'cov-halts', source: { type: 'trading-halts' }, transforms: [{ type: 'normalize-halts' }], sink },
      { client, clock: w.clock, outputDir },
    );
    const report = await coverageOfOutput(outputDir);
    expect(report.haltsUsed).toBe(true);
    expect(report.series).toHaveLength(12);
    expect(report.totals.unexplained).toBe(0);
    expect(report.totals['market-closed']).toBeGreaterThan(50);
    const aapl = report.series.find((s) => s.code === 'AAPL.US' && s.interval === '30m')!;
    expect(aapl.first).toBe(Date.parse('2026-02-02T14:30:00Z'));
    // One overnight or weekend closure between consecutive sessions: trading days - 1.
    const kline = await readKlineRows(outputDir);
    const days = new Set(kline.filter((r) => r.code === 'AAPL.US' && r.interval === '1d').map((r) => r.ts));
    expect(aapl.counts['market-closed']).toBe(days.size - 1);
    const btc = report.series.find((s) => s.code === 'BTCUSDT' && s.interval === '30m')!;
    expect(btc.counts).toEqual({ 'market-closed': 0, halted: 0, unexplained: 0 });
  }, 60_000);
});

describe('coverage report: classification', () => {
  it('missing bars inside a halt are "halted", elsewhere "unexplained"; closures are "market-closed"', async () => {
    world = await startWorld('2026-03-04T12:00:00.000Z');
    const w = world;
    // 600000.SH 1m over 3 March (Shanghai 09:30-11:30, 13:00-15:00 = 01:30-03:30, 05:00-07:00 UTC).
    const end = Date.parse('2026-03-03T07:00:00Z') / 1000;
    const all = rowsFrom(w, '600000.SH', '1m', 1, end, 480);
    expect(all).toHaveLength(480); // 240 minutes on 2 and 3 March each
    const haltFrom = Date.parse('2026-03-03T02:00:00Z');
    const haltTo = Date.parse('2026-03-03T02:30:00Z');
    const lostFrom = Date.parse('2026-03-03T05:40:00Z');
    const rows = all.filter((r) => !(r.ts >= haltFrom && r.ts < haltTo) && !(r.ts >= lostFrom && r.ts < lostFrom + 5 * 60_000));
    const halts = [{ exchange: 'sse' as const, symbol: '600000', halt_at: haltFrom, resume_trade_at: haltTo, resume_quote_at: null }];
    const report = coverageReport(rows, { halts, listClosed: true });
    const s = report.series[0]!;
    expect(s.counts).toEqual({ 'market-closed': 3, halted: 1, unexplained: 1 });
    const halted = s.gaps.find((g) => g.reason === 'halted')!;
    expect([halted.from, halted.to, halted.missingBars]).toEqual([haltFrom, haltTo, 30]);
    const lost = s.gaps.find((g) => g.reason === 'unexplained')!;
    expect([lost.from, lost.to, lost.missingBars, lost.firstUnexplained]).toEqual([lostFrom, lostFrom + 300_000, 5, lostFrom]);
    const text = formatCoverageReport(report);
    expect(text.split('\n')[0]).toBe('coverage: 1 series; gaps: 3 market closed, 1 halted, 1 unexplained');
    expect(text).toContain('    halted: 2026-03-03T02:00Z .. 2026-03-03T02:30Z (30 bars missing)');
    expect(text).toContain('    unexplained: 2026-03-03T05:40Z .. 2026-03-03T05:45Z (5 bars missing)');
    // Without the halt dataset the halt is unexplained.
    expect(coverageReport(rows).totals).toEqual({ 'market-closed': 3, halted: 0, unexplained: 2 });
    // A halt of another symbol does not explain it.
    expect(coverageReport(rows, { halts: [{ ...halts[0]!, symbol: '600009' }] }).totals.unexplained).toBe(2);
  });

  it('a code the catalog has no calendar for says its gaps are not counted, never "0 unexplained" alone', () => {
    const t0 = Date.parse('2026-03-02T00:00:00Z');
    const report = coverageReport([0, 1, 5].map((m) => ({ code: 'ZZZ', interval: '1m' as const, ts: t0 + m * 60_000 })));
    expect(report.series[0]).toMatchObject({ code: 'ZZZ', bars: 3, noCalendar: true, counts: { unexplained: 0 } });
    expect(formatCoverageReport(report).split('\n')[1]).toBe('  ZZZ 1m: 3 bars 2026-03-02T00:00Z .. 2026-03-02T00:05Z; closed 0, halted 0, unexplained 0; no calendar for this code: its gaps are not counted');
    expect(coverageReport([{ code: 'BTCUSDT', interval: '1m' as const, ts: t0 }]).series[0]!.noCalendar).toBeUndefined();
  });

  it('a gap of millions of bars is counted from the calendar, not listed bar by bar', () => {
    // A lone bar in 9999 beside one of 2026 (a lake written before bars yet to come were refused).
    const product = findProduct('BTCUSDT')!;
    const from = Date.parse('2026-03-03T00:01:00Z');
    const to = Date.parse('9999-12-31T23:59:00Z');
    const gap = classify(product, '1m', from, to, null);
    expect(gap).toEqual({ from, to, reason: 'unexplained', missingBars: (to - from) / 60_000, firstUnexplained: from });
    // Where sessions cut the count, the calendar's count is the walk's.
    const aapl = findProduct('AAPL.US')!;
    const a = Date.parse('2026-03-02T15:00:00Z');
    const b = Date.parse('2026-03-20T15:00:00Z');
    expect(classify(aapl, '1m', a, b, null).missingBars).toBe([...barOpens(aapl, '1m', a, b)].length);
  });

  it('an SSE halt of a whole day, a date without a time, explains the day from its local midnight', async () => {
    world = await startWorld('2026-03-04T12:00:00.000Z');
    const end = Date.parse('2026-03-03T07:00:00Z') / 1000;
    // The morning session of 3 March is missing (09:30-11:30 in Shanghai); trading resumed at 13:00.
    const resume = Date.parse('2026-03-03T05:00:00Z');
    const rows = rowsFrom(world, '600000.SH', '1m', 1, end, 480).filter((r) => !(r.ts >= Date.parse('2026-03-03T01:30:00Z') && r.ts < resume));
    expect(rows).toHaveLength(360);
    const wholeDay = { exchange: 'sse' as const, symbol: '600000', halt_at: null, halt_local: '2026-03-03', resume_trade_at: resume, resume_quote_at: null };
    const report = coverageReport(rows, { halts: [wholeDay] });
    const halted = report.series[0]!.gaps.find((g) => g.reason === 'halted')!;
    expect([report.totals.unexplained, halted.to, halted.missingBars]).toEqual([0, resume, 120]);
    // Without its date, nothing places it: the morning is unexplained.
    expect(coverageReport(rows, { halts: [{ ...wholeDay, halt_local: null }] }).totals).toMatchObject({ halted: 0, unexplained: 1 });
  });
});

describe('coverageOfOutput of a path that is no lake', () => {
  it('is an error, never an empty report that says all is well', async () => {
    await expect(coverageOfOutput(join(tmpdir(), 'ql-no-such-lake', 'output'))).rejects.toThrow(/ql-no-such-lake\/output is not a folder/);
    await expect(coverageOfOutput('s3://bucket/lake')).rejects.toThrow(/an s3:\/\/ lake is read through its storage/);
  });
});

describe('where a series begins', () => {
  it('a series whose history begins on the service says so, apart from its gaps', () => {
    const t0 = Date.parse('2026-03-04T10:00:00Z');
    const rows: KlineLike[] = [0, 1, 2, 4].map((i) => ({ code: 'BTCUSDT', interval: '1m', ts: t0 + i * 60_000 }));
    const report = coverageReport(rows, { historyBegins: new Map([['BTCUSDT 1m', t0]]) });
    expect(report.series[0]).toMatchObject({ historyBegins: t0, first: t0, counts: { unexplained: 1 } });
    expect(formatCoverageReport(report).split('\n')[1]).toBe(
      '  BTCUSDT 1m: 4 bars 2026-03-04T10:00Z .. 2026-03-04T10:04Z; closed 0, halted 0, unexplained 1; history begins at 2026-03-04T10:00Z (the service has no older bar)',
    );
    expect(coverageReport(rows).series[0]!.historyBegins).toBeUndefined();
  });

  it('counts are thousands-separated, as the run summary prints them', () => {
    const t0 = Date.parse('2026-03-04T00:00:00Z');
    // 1,500 minutes held, then 1,200 missing, then one more.
    const rows: KlineLike[] = [...Array.from({ length: 1500 }, (_, i) => i), 2700].map((i) => ({ code: 'BTCUSDT', interval: '1m', ts: t0 + i * 60_000 }));
    const lines = formatCoverageReport(coverageReport(rows)).split('\n');
    expect(lines[1]).toBe('  BTCUSDT 1m: 1,501 bars 2026-03-04T00:00Z .. 2026-03-05T21:00Z; closed 0, halted 0, unexplained 1');
    expect(lines[2]).toBe('    unexplained: 2026-03-05T01:00Z .. 2026-03-05T21:00Z (1,200 bars missing)');
  });
});
