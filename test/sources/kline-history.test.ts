import { afterEach, describe, expect, it } from 'vitest';
import { findProduct } from '../../src/catalog/index.js';
import type { Checkpoint } from '../../src/core/component.js';
import type { RawKline } from '../../src/core/records.js';
import type { WireKline } from '../../src/core/wire.js';
import type { SyntheticMarket } from '../../src/emulator/market/index.js';
import { klineHistory, type KlineHistoryConfig } from '../../src/sources/kline-history/index.js';
import { klineHistoryConfigSchema } from '../../src/sources/kline-history/index.js';
import { drain, startWorld, type World } from './helpers/world.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const MIN = 60;

/** The emulator's own bars with since <= ts <= top, paged straight from the synthetic market. */
function truth(market: SyntheticMarket, code: string, klineType: number, sinceSec: number, topSec: number, nowMs: number): WireKline[] {
  const product = findProduct(code)!;
  const out: WireKline[][] = [];
  let end = topSec;
  for (;;) {
    const page = market.klines(product, klineType, end, 500, nowMs);
    const kept = page.filter((b) => Number(b.timestamp) >= sinceSec);
    out.unshift(kept);
    if (page.length < 500 || Number(page[0]!.timestamp) <= sinceSec) break;
    end = Number(page[0]!.timestamp) - 1;
  }
  return out.flat();
}

function source(config: Partial<KlineHistoryConfig> & Pick<KlineHistoryConfig, 'codes' | 'intervals'>, w: World, plan: Parameters<World['client']>[0] = 'professional') {
  const parsed = klineHistoryConfigSchema.parse(config);
  const client = w.client(plan);
  return { src: klineHistory.create(parsed, w.env(client)), client, config: parsed };
}

const byTs = (rows: RawKline[]) => [...rows].sort((a, b) => Number(a.bar.timestamp) - Number(b.bar.timestamp));

describe('kline-history: crypto backward walk', () => {
  it('30 days of BTCUSDT 1m equal the emulator bars, in ceil(bars/500) requests, then only new bars', async () => {
    world = await startWorld('2026-03-02T15:00:30.000Z');
    const w = world;
    const startMs = w.clock.now();
    const sinceSec = Math.floor(startMs / 1000) - 30 * 86_400;
    const { src, client } = source({ codes: ['BTCUSDT'], intervals: ['1m'], since: new Date(sinceSec * 1000).toISOString() }, w);
    const first = await drain(src, w.clock);
    const rows = byTs(first.records);
    const bars = rows.map((r) => r.bar);
    const expected = truth(w.market, 'BTCUSDT', 1, sinceSec, Math.floor(startMs / 1000), startMs);
    // since is mid-minute: the 30 days hold 43,200 minutes, the newest one forming.
    expect(rows.length).toBe(30 * 1440);
    expect(new Set(rows.map((r) => r.bar.timestamp)).size).toBe(rows.length);
    expect(bars.slice(0, -1)).toEqual(expected.slice(0, -1));
    expect(bars[0]!.timestamp).toBe(String(sinceSec - (sinceSec % MIN) + (sinceSec % MIN === 0 ? 0 : MIN)));
    // Every minute present, the newest one still forming.
    for (let i = 1; i < rows.length; i++) expect(Number(bars[i]!.timestamp) - Number(bars[i - 1]!.timestamp)).toBe(MIN);
    expect(rows.at(-1)!.final).toBe(false);
    expect(rows.slice(0, -1).every((r) => r.final)).toBe(true);
    const requests = client.requestCounts()['/quote-b-api/kline'] ?? 0;
    expect(requests).toBeGreaterThanOrEqual(Math.ceil(rows.length / 500));
    expect(requests).toBeLessThanOrEqual(Math.ceil(rows.length / 500) + 1);
    expect(first.events.snapshot().requests['/quote-b-api/kline']).toBe(requests);
    // Each request is reported under the stream it served, as planned.
    expect(first.events.snapshot().requestsByStream).toEqual({ 'kline/BTCUSDT/1m': requests });
    expect(first.events.snapshot().planned['kline/BTCUSDT/1m']).toBeGreaterThan(0);
    const cp = first.checkpoints.get('kline/BTCUSDT/1m')!;
    expect(cp.position).toEqual({ watermark: Number(bars.at(-2)!.timestamp), low: Number(bars[0]!.timestamp) });

    // Five minutes later: one request, the old forming bar now final, five new bars (the last forming).
    w.clock.advance(5 * 60_000);
    const second = await drain(src, w.clock, first.checkpoints);
    expect(client.requestCounts()['/quote-b-api/kline']).toBe(requests + 1);
    const next = byTs(second.records);
    expect(next.map((r) => Number(r.bar.timestamp))).toEqual(
      Array.from({ length: 6 }, (_, i) => Number(bars.at(-1)!.timestamp) + i * MIN),
    );
    expect(next.map((r) => r.final)).toEqual([true, true, true, true, true, false]);
    const product = findProduct('BTCUSDT')!;
    const now = w.clock.now();
    expect(next.slice(0, 5).map((r) => r.bar)).toEqual(w.market.klines(product, 1, Number(next[4]!.bar.timestamp), 5, now));
  }, 60_000);

  it('an until still to come is now: the same bars in the same requests as no until', async () => {
    world = await startWorld('2026-03-02T15:00:30.000Z');
    const w = world;
    // One page a series: a longer walk varies by a page or two from run to run (short pages, R1).
    const since = '2026-03-02T12:00:00Z';
    // One client for both runs, as one process has: the requests of each run are the difference.
    const client = w.client('professional');
    const runOf = async (until: string | undefined) => {
      const before = client.requestCounts()['/quote-b-api/kline'] ?? 0;
      const config = klineHistoryConfigSchema.parse({ codes: ['BTCUSDT', 'EURUSD'], intervals: ['1m', '1h'], since, ...(until ? { until } : {}) });
      const out = await drain(klineHistory.create(config, w.env(client)), w.clock);
      return { bars: byTs(out.records).map((r) => `${r.code} ${r.interval} ${r.bar.timestamp} ${r.bar.close_price}`).sort(), requests: (client.requestCounts()['/quote-b-api/kline'] ?? 0) - before };
    };
    const open = await runOf(undefined);
    // Counted back from 2026-12-31, the calendar predicted pages ahead that fetched the newest bars again.
    const future = await runOf('2026-12-31T00:00:00Z');
    expect(future.bars).toEqual(open.bars);
    expect(open.requests).toBe(4);
    expect(future.requests).toBe(4);
  });

  it('a killed walk resumes with no gap and no duplicate', async () => {
    world = await startWorld('2026-03-02T15:00:00.000Z');
    const w = world;
    const config = { codes: ['ETHUSDT'], intervals: ['5m' as const], since: '2026-02-20' };
    const a = source(config, w);
    const partial = await drain(a.src, w.clock, new Map(), { maxBatches: 2 });
    const cp = partial.checkpoints.get('kline/ETHUSDT/5m')!;
    expect(cp.position.walk).toBeDefined();
    const rest = await drain(a.src, w.clock, partial.checkpoints);
    const all = [...partial.records, ...rest.records];
    // Only the forming bar is fetched twice (upserted); every final bar exactly once.
    const finals = all.filter((r) => r.final).map((r) => Number(r.bar.timestamp));
    expect(new Set(finals).size).toBe(finals.length);
    const forming = all.filter((r) => !r.final).map((r) => Number(r.bar.timestamp));
    expect(new Set(forming).size).toBe(1);
    expect(forming[0]).toBe(w.clock.now() / 1000 - ((w.clock.now() / 1000) % 300));
    const ts = [...new Set(all.map((r) => Number(r.bar.timestamp)))].sort((x, y) => x - y);
    const since = Date.parse('2026-02-20T00:00:00Z') / 1000;
    expect(ts[0]).toBe(since);
    for (let i = 1; i < ts.length; i++) expect(ts[i]! - ts[i - 1]!).toBe(300);
    const end = rest.checkpoints.get('kline/ETHUSDT/5m')!.position;
    expect(end.walk).toBeUndefined();
    expect(end.low).toBe(since);
  });
});

describe('kline-history: lint', () => {
  it('refuses 2h and 4h on a stock when the pipeline is validated', () => {
    const findings = klineHistory.lint!(klineHistoryConfigSchema.parse({ codes: ['AAPL.US', 'BTCUSDT'], intervals: ['1h', '4h'] }));
    expect(findings).toEqual([{ path: ['intervals', 1], message: expect.stringContaining('4h bars are not served for AAPL.US') }]);
  });
  it('names unknown codes with a case hint', () => {
    const findings = klineHistory.lint!(klineHistoryConfigSchema.parse({ codes: ['btcusdt'], intervals: ['1m'] }));
    expect(findings[0]!.message).toContain('did you mean "BTCUSDT"');
  });
});

export type { Checkpoint };
