/**
 * Batch.settledFrom of kline-history: once every series has started, each batch says below which
 * instant the run's later rows lie, and it must hold for every row that follows (a sink finishes
 * the days at or after it). Checked on whole backfills, with the service's short pages and
 * unordered answers (R1, W3), with markets that close (forex, metals), and across a killed walk
 * resumed under a later clock, whose first steps go back up to the newest bars.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Batch } from '../../src/core/component.js';
import type { RawKline } from '../../src/core/records.js';
import { klineHistory, klineHistoryConfigSchema } from '../../src/sources/kline-history/index.js';
import { drain, startWorld, type World } from './helpers/world.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** Bar open times (epoch ms) of the rows a sink would take (flawed records are rejected before it). */
function rowTimes(batch: Batch<RawKline>): number[] {
  return batch.records.filter((r) => r.flaw === undefined).map((r) => Number(r.bar.timestamp) * 1000);
}

/** The first broken promise (a later row at or after a batch's settledFrom), or undefined; and how many batches said one. */
function checkSettled(batches: readonly Batch<RawKline>[]): { broken: string | undefined; said: number } {
  let said = 0;
  // The newest row of every batch after index i, computed from the end.
  const newestAfter = new Array<number>(batches.length).fill(-Infinity);
  for (let i = batches.length - 2; i >= 0; i--) newestAfter[i] = Math.max(newestAfter[i + 1]!, ...rowTimes(batches[i + 1]!));
  for (let i = 0; i < batches.length; i++) {
    const settled = batches[i]!.settledFrom;
    if (settled === undefined) continue;
    said++;
    if (newestAfter[i]! >= settled) return { broken: `batch ${i} (${batches[i]!.stream}) settled from ${new Date(settled).toISOString()}, a later row is at ${new Date(newestAfter[i]!).toISOString()}`, said };
  }
  return { broken: undefined, said };
}

const CODES = ['BTCUSDT', 'ETHUSDT', 'EURUSD', 'GOLD', 'USDJPY'];

describe('kline-history: settledFrom', () => {
  it('a backfill of five series: every later row lies below each batch settledFrom, said by nearly every batch once all have started', async () => {
    world = await startWorld('2026-03-04T09:30:30.000Z');
    const config = klineHistoryConfigSchema.parse({ codes: CODES, intervals: ['1m', '15m'], since: '12d', concurrency: 3 });
    const { batches, records } = await drain(klineHistory.create(config, world.env(world.client('professional'))), world.clock);
    expect(records.length).toBeGreaterThan(40_000);
    const { broken, said } = checkSettled(batches);
    expect(broken).toBeUndefined();
    expect(said).toBeGreaterThan(batches.length * 0.6);
    // It moves down with the walk: the last batch's is below the first's, and days well inside the span are settled.
    const firsts = batches.find((b) => b.settledFrom !== undefined)!.settledFrom!;
    const lasts = [...batches].reverse().find((b) => b.settledFrom !== undefined)!.settledFrom!;
    expect(lasts).toBeLessThan(firsts - 10 * 86_400_000);
  });

  it('holds with short pages and answers in any order', async () => {
    world = await startWorld('2026-03-04T09:30:30.000Z', 11, 'short-pages=0.5,shuffle,missing-bars');
    const config = klineHistoryConfigSchema.parse({ codes: CODES, intervals: ['5m'], since: '9d', concurrency: 2 });
    const { batches } = await drain(klineHistory.create(config, world.env(world.client('professional'))), world.clock);
    const { broken, said } = checkSettled(batches);
    expect(broken).toBeUndefined();
    expect(said).toBeGreaterThan(10);
  });

  it('a killed walk resumed later says nothing until its newer bars are walked too', async () => {
    world = await startWorld('2026-03-04T09:30:30.000Z');
    const config = klineHistoryConfigSchema.parse({ codes: ['BTCUSDT', 'EURUSD'], intervals: ['1m'], since: '6d', concurrency: 2 });
    const src = klineHistory.create(config, world.env(world.client('professional')));
    const partial = await drain(src, world.clock, new Map(), { maxBatches: 6 });
    // Two hours later the walks resume (step 1, older bars) and then fetch the two new hours (step 2).
    world.clock.advance(2 * 3_600_000);
    const rest = await drain(src, world.clock, partial.checkpoints);
    const newest = Math.max(...rest.batches.flatMap(rowTimes));
    expect(newest).toBeGreaterThan(Date.parse('2026-03-04T11:00:00Z'));
    const { broken, said } = checkSettled(rest.batches);
    expect(broken).toBeUndefined();
    expect(said).toBeGreaterThan(0);
  });
});
