import { afterEach, describe, expect, it } from 'vitest';
import { readPosition } from '../../src/sources/kline-history/kline-position.js';
import { klineHistory, klineHistoryConfigSchema } from '../../src/sources/kline-history/index.js';
import { drain, startWorld, type World } from './helpers/world.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const CODES = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'DOGEUSDT', 'SHIBUSDT', 'TONUSDT'];
/** One 500-bar page of 1m bars of a 24/7 market, in seconds. */
const PAGE_SPAN = 500 * 60;

describe('kline-history: series advance through time together (time-major)', () => {
  it('6 codes with concurrency 2: while they walk, their frontiers stay within one page span of each other', async () => {
    world = await startWorld('2026-03-02T15:00:30.000Z');
    const config = klineHistoryConfigSchema.parse({ codes: CODES, intervals: ['1m'], since: '10d', concurrency: 2 });
    const src = klineHistory.create(config, world.env(world.client('professional')));
    const { batches, records } = await drain(src, world.clock);

    // Where each series' walk is after each batch, in the order the run gets them.
    const frontier = new Map<string, number>();
    const done = new Set<string>();
    let widest = 0;
    let measured = 0;
    for (const b of batches) {
      const walk = readPosition(b.checkpoint).walk;
      if (walk) frontier.set(b.stream, walk.next);
      else done.add(b.stream);
      const going = [...frontier].filter(([s]) => !done.has(s)).map(([, next]) => next);
      if (frontier.size === CODES.length && going.length > 1) {
        widest = Math.max(widest, Math.max(...going) - Math.min(...going));
        measured++;
      }
    }
    // Every series walked its 10 days (the newest minute still forming), each batch in its own order.
    expect(new Set(batches.map((b) => b.stream))).toEqual(new Set(CODES.map((c) => `kline/${c}/1m`)));
    for (const code of CODES) {
      expect(records.filter((r) => r.code === code).length).toBe(10 * 1440);
      const seqs = batches.filter((b) => b.stream === `kline/${code}/1m`).map((b) => b.seq);
      expect(seqs).toEqual(seqs.map((_, i) => i));
    }
    // Nearly all batches were measured with all six walking; fetched in waves of two, the first
    // two would have reached `since` (10 days back) before the last two started.
    expect(measured).toBeGreaterThan(150);
    expect(widest).toBeLessThanOrEqual(PAGE_SPAN);
  });
});
