import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { QuotaStore } from '../../src/api/index.js';
import type { RawKline, RawTrade } from '../../src/core/records.js';
import { klineHistory, klineHistoryConfigSchema } from '../../src/sources/kline-history/index.js';
import { klineLatest, klineLatestConfigSchema } from '../../src/sources/kline-latest/index.js';
import { tradeSnapshot, tradeSnapshotConfigSchema } from '../../src/sources/trade-snapshot/index.js';
import { drain, startWorld, type World } from './helpers/world.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('kline-history: the daily quota runs out', () => {
  it('stops cleanly at a committed page, says when to resume, and the next day finishes with no gap', async () => {
    world = await startWorld('2026-03-04T20:00:00.000Z');
    const w = world;
    // Another process of the same token already used 997 of the free plan's 1000 requests today.
    const other = new QuotaStore({ stateDir: join(w.dir, 'state'), token: 'demo-free', limit: 1000, clock: w.clock, timeZone: 'UTC', blockSize: 997 });
    for (let i = 0; i < 997; i++) await other.take();
    await other.close();
    const client = w.client('free');
    const config = klineHistoryConfigSchema.parse({ codes: ['BTCUSDT'], intervals: ['5m'], since: '2026-02-23T00:00:00Z' });
    const src = klineHistory.create(config, w.env(client));
    const day1 = await drain<RawKline>(src, w.clock);
    expect(client.requestCounts()['/quote-b-api/kline']).toBe(3);
    expect(day1.batches).toHaveLength(3);
    expect(day1.events.snapshot().notes.some((n) => n.includes('daily request quota used up') && n.includes('2026-03-05T00:00:00.000Z'))).toBe(true);
    expect(day1.checkpoints.get('kline/BTCUSDT/5m')!.position.walk).toBeDefined();
    w.clock.set('2026-03-05T00:00:30.000Z');
    const day2 = await drain<RawKline>(src, w.clock, day1.checkpoints);
    const finals = [...day1.records, ...day2.records].filter((r) => r.final).map((r) => Number(r.bar.timestamp)).sort((a, b) => a - b);
    expect(new Set(finals).size).toBe(finals.length);
    expect(finals[0]).toBe(Date.parse('2026-02-23T00:00:00Z') / 1000);
    for (let i = 1; i < finals.length; i++) expect(finals[i]! - finals[i - 1]!).toBe(300);
    expect(finals.at(-1)).toBe(Date.parse('2026-03-04T23:55:00Z') / 1000);
  });
});

/** Uses all but `left` of the free plan's 1000 requests today, as another process of the token would. */
async function leaveFreeQuota(w: World, left: number): Promise<void> {
  const other = new QuotaStore({ stateDir: join(w.dir, 'state'), token: 'demo-free', limit: 1000, clock: w.clock, timeZone: 'UTC', blockSize: 1000 - left });
  for (let i = 0; i < 1000 - left; i++) await other.take();
  await other.close();
}

describe('polling sources: the daily quota runs out mid-way', () => {
  // Snapshots and latest bars cannot be fetched again later: the rounds already handed over must
  // reach the sink (the source ends; it does not fail the run, which would throw them away).
  it('trade-snapshot hands over every round it fetched, notes the reset, and ends', async () => {
    world = await startWorld('2026-03-04T15:00:00.000Z');
    await leaveFreeQuota(world, 3);
    const src = tradeSnapshot.create(tradeSnapshotConfigSchema.parse({ codes: ['BTCUSDT'], everySeconds: 10, count: 6 }), world.env(world.client('free')));
    const run = await drain<RawTrade>(src, world.clock);
    expect(run.batches).toHaveLength(3);
    expect(run.records.map((r) => r.tick.code)).toEqual(['BTCUSDT', 'BTCUSDT', 'BTCUSDT']);
    expect(run.events.snapshot().notes).toEqual(['trade-snapshot: daily request quota used up after 3 rounds; what they fetched is kept, run again after 2026-03-05T00:00:00.000Z']);
    // Stopped, not done: the last frame of progress shows it where it stopped.
    expect(run.events.snapshot().doneStreams).toEqual([]);
  });

  it('a round the cap stops part-way (one family answered, the other refused) is handed over with what it received', async () => {
    world = await startWorld('2026-03-04T15:00:00.000Z');
    await leaveFreeQuota(world, 3);
    // Two families, two requests a round: the second round gets one of them.
    const src = tradeSnapshot.create(tradeSnapshotConfigSchema.parse({ codes: ['BTCUSDT', 'AAPL.US'], everySeconds: 10, count: 4 }), world.env(world.client('free')));
    const run = await drain<RawTrade>(src, world.clock);
    expect(run.batches.map((b) => b.records.length)).toEqual([2, 1]);
    expect(run.events.snapshot().notes).toEqual(['trade-snapshot: daily request quota used up after 1 round and part of the next; what they fetched is kept, run again after 2026-03-05T00:00:00.000Z']);
  });

  it('kline-latest: a batch the cap stops part-way keeps the series it received', async () => {
    world = await startWorld('2026-03-04T15:00:00.000Z');
    await leaveFreeQuota(world, 1);
    const src = klineLatest.create(klineLatestConfigSchema.parse({ codes: ['BTCUSDT', 'AAPL.US'], intervals: ['1m'] }), world.env(world.client('free')));
    const run = await drain<RawKline>(src, world.clock);
    expect(run.batches).toHaveLength(1);
    expect(run.records).toHaveLength(2);
    expect(run.checkpoints.size).toBe(1);
    expect(run.events.snapshot().notes).toEqual(['kline-latest: daily request quota used up after part of the first round; what they fetched is kept, run again after 2026-03-05T00:00:00.000Z']);
  });

  it('kline-latest hands over every round it fetched, with checkpoints, notes the reset, and ends', async () => {
    world = await startWorld('2026-03-04T15:00:00.000Z');
    await leaveFreeQuota(world, 2);
    const src = klineLatest.create(klineLatestConfigSchema.parse({ codes: ['BTCUSDT'], intervals: ['1m'], everySeconds: 60, count: 5 }), world.env(world.client('free')));
    const run = await drain<RawKline>(src, world.clock);
    expect(run.batches).toHaveLength(2);
    expect(run.records).toHaveLength(4);
    expect(run.checkpoints.get('kline/BTCUSDT/1m')).toBeDefined();
    expect(run.events.snapshot().notes).toEqual(['kline-latest: daily request quota used up after 2 rounds; what they fetched is kept, run again after 2026-03-05T00:00:00.000Z']);
  });
});
