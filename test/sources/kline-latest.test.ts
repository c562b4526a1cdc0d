import { afterEach, describe, expect, it } from 'vitest';
import { findProduct } from '../../src/catalog/index.js';
import type { RawKline } from '../../src/core/records.js';
import { klineHistory, klineHistoryConfigSchema } from '../../src/sources/kline-history/index.js';
import { klineLatest, klineLatestConfigSchema } from '../../src/sources/kline-latest/index.js';
import { drain, startWorld, type World } from './helpers/world.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('kline-latest', () => {
  it('packs items to the plan cap (free: 5), keeps the batch gap, upserts the forming bar', async () => {
    world = await startWorld('2026-03-03T15:00:30.000Z');
    const client = world.client('free');
    const codes = ['BTCUSDT', 'ETHUSDT', 'EURUSD', 'GOLD', 'Silver', 'USOIL'];
    const t0 = world.clock.now();
    const src = klineLatest.create(klineLatestConfigSchema.parse({ codes, intervals: ['1m'] }), world.env(client));
    const run = await drain<RawKline>(src, world.clock);
    // 6 items, cap 5: two requests 10 s apart (free batch gap).
    expect(client.requestCounts()).toEqual({ '/quote-b-api/batch-kline': 2 });
    expect(world.clock.now() - t0).toBe(10_000);
    expect(run.records).toHaveLength(12);
    for (const code of codes) {
      const rows = run.records.filter((r) => r.code === code).sort((a, b) => Number(a.bar.timestamp) - Number(b.bar.timestamp));
      expect(rows.map((r) => r.final)).toEqual([true, false]);
      expect(rows[0]!.bar).toEqual(world.market.klines(findProduct(code)!, 1, Number(rows[0]!.bar.timestamp), 1, world.clock.now())[0]);
    }
  });

  it('keeps a backfilled series current; the forming bar becomes final without a duplicate', async () => {
    world = await startWorld('2026-03-03T14:29:10.000Z');
    const w = world;
    const client = w.client('professional');
    // AAPL.US: the US session opens at 14:30 UTC (09:30 New York, EST).
    const hist = klineHistory.create(klineHistoryConfigSchema.parse({ codes: ['AAPL.US'], intervals: ['1m'], since: '2026-03-02' }), w.env(client));
    const h = await drain<RawKline>(hist, w.clock);
    const before = h.records.filter((r) => r.final).length;
    expect(before).toBe(390); // one full session on 2 March
    w.clock.set('2026-03-03T14:31:30.000Z');
    const latest = klineLatest.create(klineLatestConfigSchema.parse({ codes: ['AAPL.US'], intervals: ['1m'], everySeconds: 60, count: 2 }), w.env(client));
    const l = await drain<RawKline>(latest, w.clock, h.checkpoints);
    const ts = l.records.map((r) => `${r.bar.timestamp}:${r.final}`);
    const open = Date.parse('2026-03-03T14:30:00Z') / 1000;
    expect(ts).toEqual([`${open}:true`, `${open + 60}:false`, `${open + 60}:true`, `${open + 120}:false`]);
    // The gap between the backfill (2 March close) and the new session is the market closing: no note.
    expect(l.events.snapshot().notes.filter((n) => n.includes('not held'))).toEqual([]);
    expect(l.checkpoints.get('kline/AAPL.US/1m')!.position.watermark).toBe(open + 60);
  });

  it('says when a series fell behind by more than the two latest bars', async () => {
    world = await startWorld('2026-03-03T12:00:30.000Z');
    const w = world;
    const client = w.client('professional');
    const hist = klineHistory.create(klineHistoryConfigSchema.parse({ codes: ['BTCUSDT'], intervals: ['1m'], since: '1h' }), w.env(client));
    const h = await drain<RawKline>(hist, w.clock);
    w.clock.advance(10 * 60_000);
    const latest = klineLatest.create(klineLatestConfigSchema.parse({ codes: ['BTCUSDT'], intervals: ['1m'] }), w.env(client));
    const l = await drain<RawKline>(latest, w.clock, h.checkpoints);
    const notes = l.events.snapshot().notes;
    expect(notes).toEqual(['kline-latest kline/BTCUSDT/1m: bars after 2026-03-03T11:59:00Z and before 2026-03-03T12:09:00Z are not held; run kline-history to fill them']);
    expect(l.events.snapshot().planned).toEqual({ 'kline-latest': 1 });
  });

  it('keeps what a walk learned of the series (where its history begins, that its pages overlap) for the next walk', async () => {
    world = await startWorld('2026-03-03T12:00:30.000Z');
    const w = world;
    const stream = 'kline/BTCUSDT/1m';
    const held = { stream, position: { watermark: 1772538960, low: 1772535600, begins: 1772535600, overlapping: true } };
    const latest = klineLatest.create(klineLatestConfigSchema.parse({ codes: ['BTCUSDT'], intervals: ['1m'] }), w.env(w.client('professional')));
    const l = await drain<RawKline>(latest, w.clock, new Map([[stream, held]]));
    // 11:59 final, 12:00 forming: the watermark moves a bar, the rest stays.
    expect(l.checkpoints.get(stream)!.position).toEqual({ watermark: 1772539140, low: 1772535600, begins: 1772535600, overlapping: true });
  });
});
