/**
 * Progress per stream from a real walk: short pages (R1) make a walk need more requests than
 * planned; the source re-plans as it goes and ends each stream at exactly what it sent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { progressFigures } from '../../src/cli/progress/progress-figures.js';
import { createRunEvents } from '../../src/runtime/run-events.js';
import { klineHistory, klineHistoryConfigSchema } from '../../src/sources/kline-history/index.js';
import { planKlineHistory } from '../../src/sources/kline-history/plan-kline-history.js';
import { drain, startWorld, type World } from './helpers/world.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('kline-history: planned requests per stream', () => {
  it('short pages: the plan grows past the start plan, done never shown above it, each stream ends at what it sent', async () => {
    world = await startWorld('2026-03-02T15:00:30.000Z', 7, 'short-pages=0.5');
    const w = world;
    const config = klineHistoryConfigSchema.parse({ codes: ['BTCUSDT', 'EURUSD'], intervals: ['1m', '1h'], since: '2026-02-25T00:00:00Z' });
    const start = planKlineHistory(config, { nowMs: w.clock.now(), checkpoints: new Map() });
    const client = w.client();
    const src = klineHistory.create(config, w.env(client));
    let overshoot = 0;
    const maxPlanned = new Map<string, number>();
    const events = createRunEvents();
    // The source's own plan at every count, before the display's floor (done never shown above
    // planned): between two re-plans, requests run ahead of it by at most the pages asked for ahead
    // on the chain a short page broke plus those of the new chain.
    const watch = () => {
      const snap = events.snapshot();
      for (const [stream, planned] of Object.entries(snap.planned)) {
        overshoot = Math.max(overshoot, (snap.requestsByStream[stream] ?? 0) - planned);
        maxPlanned.set(stream, Math.max(maxPlanned.get(stream) ?? 0, planned));
      }
      const f = progressFigures(events, 0, 1000, undefined);
      if (f.streams.some((x) => x.requests > x.planned) || f.requests > f.planned) overshoot = Infinity;
    };
    events.on('request', watch);
    events.on('planned', watch);
    const drained = await drain(src, w.clock, new Map(), { events });
    const snap = drained.events.snapshot();
    const sent = client.requestCounts();
    // Every request on the stream that sent it; the total is the client's own count.
    expect(Object.values(snap.requestsByStream).reduce((a, b) => a + b, 0)).toBe(Object.values(sent).reduce((a, b) => a + b, 0));
    expect(snap.requests).toEqual(sent);
    for (const s of start.streams) {
      // Each stream ends at exactly what it sent.
      expect(snap.planned[s.stream]).toBe(snap.requestsByStream[s.stream]);
    }
    const btc = start.streams.find((s) => s.stream === 'kline/BTCUSDT/1m')!;
    // Half the pages short: far more requests than the start plan, and the plan followed during the walk.
    expect(snap.requestsByStream['kline/BTCUSDT/1m']).toBeGreaterThan(btc.requests);
    expect(maxPlanned.get('kline/BTCUSDT/1m')).toBeGreaterThan(btc.requests);
    expect(overshoot).toBeLessThanOrEqual(2 * config.prefetchPages);
  }, 120_000);
});
