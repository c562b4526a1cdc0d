import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { QuotaStore } from '../../src/api/index.js';
import type { RawKline } from '../../src/core/records.js';
import { klineHistory, klineHistoryConfigSchema } from '../../src/sources/kline-history/index.js';
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
