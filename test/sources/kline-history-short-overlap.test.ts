/**
 * R1 with R2: a short page of a service whose end reaches a bar further may hold only bars above the
 * end asked for. That is not "none older": the walk asks again before it says where history begins.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { klineHistory, klineHistoryConfigSchema } from '../../src/sources/kline-history/index.js';
import type { RawKline } from '../../src/core/records.js';
import { drain, startWorld, type World } from './helpers/world.js';

const NOW = '2026-03-04T15:00:30.000Z';

let worlds: World[] = [];
afterEach(async () => {
  await Promise.all(worlds.map((w) => w.close()));
  worlds = [];
});

async function walked(seed: number, behaviours: string | undefined, since: string, until = '2026-03-04T14:59:00Z'): Promise<{ ts: number[]; notes: readonly string[] }> {
  const world = await startWorld(NOW, seed, behaviours);
  worlds.push(world);
  const config = klineHistoryConfigSchema.parse({ codes: ['EURUSD'], intervals: ['1m'], since, until });
  const drained = await drain(klineHistory.create(config, world.env(world.client())), world.clock);
  const ts = (drained.records as RawKline[]).filter((r) => 'bar' in r).map((r) => Number(r.bar.timestamp)).sort((a, b) => a - b);
  return { ts, notes: drained.events.snapshot().notes };
}

describe('kline-history: short pages of a service whose end reaches further', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])('seed %i: every bar from since, as without the behaviours, and no "history begins"', async (seed) => {
    const since = '2026-03-03T00:00:00Z';
    const clean = await walked(seed, undefined, since);
    const odd = await walked(seed, 'short-pages=0.7,overlap', since);
    expect(clean.ts[0]).toBe(Date.parse(since) / 1000);
    expect(odd.ts).toEqual(clean.ts);
    expect(odd.notes.filter((n) => n.includes('history begins'))).toEqual([]);
  }, 60_000);

  it.each([1, 2, 3, 4])('seed %i: a walk of one, two, three bars, its page short to the bar above its end', async (seed) => {
    for (const since of ['2026-03-04T14:59:00Z', '2026-03-04T14:58:00Z', '2026-03-04T14:57:00Z']) {
      const clean = await walked(seed, undefined, since);
      const odd = await walked(seed, 'short-pages=1,overlap', since);
      expect(clean.ts[0]).toBe(Date.parse(since) / 1000);
      expect(odd.ts, since).toEqual(clean.ts);
      expect(odd.notes.filter((n) => n.includes('history begins'))).toEqual([]);
    }
  }, 60_000);
});
