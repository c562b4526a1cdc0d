import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock, shiftedClock, spanAnchor } from '../../src/core/clock.js';
import type { RawKline } from '../../src/core/records.js';
import { klineHistory, klineHistoryConfigSchema } from '../../src/sources/kline-history/index.js';
import { planKlineHistory } from '../../src/sources/kline-history/plan-kline-history.js';
import { drain, startWorld, type World } from './helpers/world.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const T = Date.parse('2026-11-20T00:00:00.000Z');

describe('spans such as 3d count back from the --clock instant, not from when the source started', () => {
  it('a shifted clock (--clock) is anchored at its start however far it has run; real and manual clocks at now', () => {
    const base = new ManualClock(Date.parse('2031-01-01T00:00:00Z'));
    const pinned = shiftedClock(T, base);
    base.set(base.now() + 1_500);
    expect(pinned.now()).toBe(T + 1_500);
    expect(spanAnchor(pinned)).toBe(T);
    expect(spanAnchor(base)).toBe(base.now());
  });

  it('the plan and the walk both start at the bar that opens exactly a span before the pinned instant', async () => {
    // As under --clock 2026-11-20T00:00:00Z: the clock has run on by the time the source starts.
    world = await startWorld('2026-11-20T00:00:00.037Z');
    const w = world;
    const clock = Object.assign(w.clock, { origin: T });
    const config = klineHistoryConfigSchema.parse({ codes: ['BTCUSDT'], intervals: ['1m'], since: '1h' });
    const drained = await drain(klineHistory.create(config, w.env(w.client('professional'))), clock);
    const opens = (drained.records as RawKline[]).map((r) => Number(r.bar.timestamp) * 1000).sort((a, b) => a - b);
    expect(new Date(opens[0]!).toISOString()).toBe('2026-11-19T23:00:00.000Z');
    // 23:00 to 00:00 inclusive (00:00 is the forming bar), each once.
    expect(opens.length).toBe(61);
    expect(new Set(opens).size).toBe(opens.length);
    const plan = planKlineHistory(config, { nowMs: clock.now(), spanFromMs: spanAnchor(clock), checkpoints: new Map() });
    expect(plan.streams.map((s) => s.records)).toEqual([61]);
  });
});
